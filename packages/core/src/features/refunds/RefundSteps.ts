import { Context, Effect } from "effect"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { RefundsRepository } from "../../ports/RefundsRepository.js"
import { Transactions } from "../../ports/Transactions.js"
import { IdempotentRequests } from "../idempotency/IdempotentRequests.js"
import { PaymentCalls } from "../payments/PaymentCalls.js"
import { Payments } from "../payments/Payments.js"
import { RefundRecords } from "./RefundRecords.js"

/** What the refund pipelines and their steps read from the context (see `PaymentSteps`). */
const STEP_SERVICES = [RefundRecords, RefundsRepository, Payments, PaymentCalls, IdempotentRequests, IdGenerator, Transactions] as const

export type RefundSteps = Context.Tag.Identifier<typeof STEP_SERVICES[number]>

/** The context of the refund steps, picked from where a service that runs them is made. */
export const refundSteps: Effect.Effect<Context.Context<RefundSteps>, never, RefundSteps> = Effect.map(
  Effect.context<RefundSteps>(),
  Context.pick(...STEP_SERVICES)
)
