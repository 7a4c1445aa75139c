import { Effect, Option } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import { now } from "../domain/Timestamp.js"
import { IdempotencyScope } from "../idempotency/IdempotencyScope.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import { Transactions } from "../ports/Transactions.js"
import { Connectors } from "../providers/Connectors.js"
import { ProviderResolution } from "../providers/ProviderResolution.js"
import { knownCardOf, routingFactsOf } from "../routing/PaymentFacts.js"
import { CustomersRepository } from "../subscriptions/CustomersRepository.js"
import type { SendContext } from "./AttemptSending.js"
import { awaitsOutcome, type CreatePayment, Payment, PaymentMethod } from "./Payment.js"
import { PaymentAttempts } from "./PaymentAttempts.js"
import { PaymentCustomerNotFound } from "./PaymentErrors.js"
import { PaymentRecords } from "./PaymentRecords.js"

/** How a payment is made beyond its API fields: by whom and for what (a renewal, a drop-in). */
export interface PaymentContext extends Partial<SendContext> {
  /** The customer is not there (a renewal); see `Payment.off_session`. */
  readonly offSession?: boolean
  /**
   * A 3D Secure challenge needs no return_url: without one the customer ends on the service's own
   * page ("you can close this window") and the payment waits in `requires_action`. For a
   * subscription's first charge, whose request has no return_url (the seed's CreateSubscription);
   * a plain payment without one is canceled and refused (422 `return_url_required`, decisions §4).
   */
  readonly closingPage?: boolean
}

const concludeOptionsOf = (context: PaymentContext | undefined) => ({ closingPage: context?.closingPage === true })

/**
 * A new payment: written, routed and sent in one request; under an Idempotency-Key whose earlier run
 * was cut short, the payment that run created is finished instead (as `resume` does).
 */
export const makePaymentCreation = Effect.gen(function*() {
  const records = yield* PaymentRecords
  const attempts = yield* PaymentAttempts
  const transactions = yield* Transactions
  const ids = yield* IdGenerator
  const resolution = yield* ProviderResolution
  const connectors = yield* Connectors
  const customers = yield* CustomersRepository

  /** Finishes a payment found as an earlier run left it: an unanswered attempt is sent again. */
  const finish = (tenant: Tenant, payment: Payment, context?: PaymentContext) =>
    Effect.gen(function*() {
      const open = payment.status === "processing" && awaitsOutcome(payment.attempts.at(-1))
      return yield* attempts.conclude(
        tenant,
        open ? yield* attempts.send(tenant, payment, { resend: true }) : payment,
        concludeOptionsOf(context)
      )
    })

  const resume = Effect.fn("Payments.resume")(function*(tenant: Tenant, id: string, context?: PaymentContext) {
    return yield* finish(tenant, yield* records.load(tenant, id), context)
  })

  const create = Effect.fn("Payments.create")(function*(tenant: Tenant, input: CreatePayment, context?: PaymentContext) {
    const scope = yield* IdempotencyScope
    if (Option.isSome(scope.recovered)) {
      const earlier = yield* Effect.option(records.load(tenant, scope.recovered.value))
      if (Option.isSome(earlier)) return yield* finish(tenant, earlier.value, context)
      // Attached in the transaction that created it, it would exist; reserved, the run before may
      // have stopped short of creating it, and this run creates it under that id.
      if (Option.isNone(scope.reserved)) return yield* Effect.dieMessage(`payment ${scope.recovered.value} vanished`)
    }
    // Only the organization's own customer, in this mode: another's id would tie the payment (and
    // what the PSP is told of the customer) to someone else's record.
    if (input.customer_id !== undefined && Option.isNone(yield* customers.find(tenant, input.customer_id))) {
      return yield* new PaymentCustomerNotFound({ id: input.customer_id })
    }
    const card = yield* knownCardOf(connectors, input.payment_method)
    const { connection, fallbacks, routing } = yield* resolution.forPayment(tenant, {
      provider: input.provider,
      ...routingFactsOf(input, card)
    })
    const id = Option.isSome(scope.reserved) ? scope.reserved.value : yield* ids.make("pay")
    const createdAt = yield* now
    const created = new Payment({
      object: "payment",
      id,
      status: "created",
      amount: input.amount,
      amount_captured: 0,
      amount_refunded: 0,
      currency: input.currency,
      provider: connection.name,
      provider_payment_id: null,
      routing,
      payment_method: new PaymentMethod({
        type: input.payment_method.type,
        token: "token" in input.payment_method ? input.payment_method.token : null,
        brand: card.brand,
        last4: card.last4,
        country: card.country
      }, true),
      customer_id: input.customer_id ?? null,
      description: input.description ?? null,
      metadata: input.metadata ?? {},
      capture: input.capture ?? true,
      off_session: context?.offSession ?? false,
      return_url: input.return_url ?? null,
      next_action: null,
      failure: null,
      attempts: [],
      created_at: createdAt,
      updated_at: createdAt,
      livemode: tenant.livemode
      // Made of the request the API validated; validated in full when the store encodes it (a
      // constructor that validates again costs a tenth of a millisecond per payment).
    }, true)
    // Created and sent in one write: the row starts as `processing`, with both events.
    const states = [
      created,
      new Payment({ ...created, status: "processing", attempts: [yield* attempts.newAttempt(connection.name)] }, true)
    ] as const
    // Under a key that named this payment from the start, the write is all there is to commit (one
    // statement, where the store can; the key's own insert rides with it when it is not written yet);
    // otherwise the key learns of it in the same transaction.
    const sent = Option.isSome(scope.reserved)
      ? yield* scope.claimWith((claim) => records.createClaiming(tenant, states, claim))
      : yield* transactions.run(Effect.tap(records.createThrough(tenant, states), () => scope.attach(id)))
    const sendContext = context === undefined
      ? undefined
      : { browser: context.browser ?? null, storedCredential: context.storedCredential ?? "none" }
    return yield* attempts.conclude(
      tenant,
      yield* attempts.send(tenant, sent, {
        resend: false,
        connection,
        fallbacks,
        ...(sendContext ? { context: sendContext } : {})
      }),
      concludeOptionsOf(context)
    )
  })

  return { create, resume }
})
