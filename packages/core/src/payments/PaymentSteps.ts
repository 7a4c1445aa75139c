import { Context, Effect } from "effect"
import { IdempotentRequests } from "../idempotency/IdempotentRequests.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import { PublicUrls } from "../ports/PublicUrls.js"
import { Transactions } from "../ports/Transactions.js"
import { Connectors } from "../providers/Connectors.js"
import { ProviderResolution } from "../providers/ProviderResolution.js"
import { CustomersRepository } from "../subscriptions/CustomersRepository.js"
import { KeyMaterial } from "../tenancy/KeyMaterial.js"
import { PaymentCalls } from "./PaymentCalls.js"
import { PaymentRecords } from "./PaymentRecords.js"
import { PaymentsRepository } from "./PaymentsRepository.js"

/**
 * What the payment pipelines and their steps read from the context: the steps are plain functions
 * that ask for these, and each service that runs them (`Payments`, `PaymentRecovery`) picks them once,
 * when it is made, and gives them to every run.
 */
const STEP_SERVICES = [
  PaymentRecords,
  PaymentsRepository,
  PaymentCalls,
  IdempotentRequests,
  ProviderResolution,
  Connectors,
  CustomersRepository,
  IdGenerator,
  Transactions,
  PublicUrls,
  KeyMaterial
] as const

export type PaymentSteps = Context.Tag.Identifier<typeof STEP_SERVICES[number]>

/** The context of the payment steps, picked from where a service that runs them is made. */
export const paymentSteps: Effect.Effect<Context.Context<PaymentSteps>, never, PaymentSteps> = Effect.map(
  Effect.context<PaymentSteps>(),
  Context.pick(...STEP_SERVICES)
)
