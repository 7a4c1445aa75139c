import { Context, Effect } from "effect"
import { CustomersRepository } from "../../ports/CustomersRepository.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { KeyMaterial } from "../../ports/KeyMaterial.js"
import { PaymentsRepository } from "../../ports/PaymentsRepository.js"
import { PublicUrls } from "../../ports/PublicUrls.js"
import { Transactions } from "../../ports/Transactions.js"
import { Connectors } from "../connections/Connectors.js"
import { IdempotentRequests } from "../idempotency/IdempotentRequests.js"
import { ProviderResolution } from "../routing/ProviderResolution.js"
import { PaymentCalls } from "./PaymentCalls.js"
import { PaymentRecords } from "./PaymentRecords.js"

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
