import { Effect, Exit, Option } from "effect"
import { heldBy, type KeyedAnswer, type KeyedRequest, noKey, type Running } from "../../domain/idempotency/KeyRun.js"
import { awaitsOutcome, type CreatePayment, Payment, PaymentAnswer, PaymentMethod } from "../../domain/payments/Payment.js"
import { PaymentCustomerNotFound } from "../../domain/payments/PaymentErrors.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now } from "../../domain/Timestamp.js"
import { CardReadAlong, CardVault, isVaultToken } from "../../ports/CardVault.js"
import { CustomersRepository } from "../../ports/CustomersRepository.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { Transactions } from "../../ports/Transactions.js"
import { Connectors } from "../connections/Connectors.js"
import { IdempotentRequests, succeededAnswer } from "../idempotency/IdempotentRequests.js"
import { knownCardOf, routingFactsOf } from "../routing/PaymentFacts.js"
import { ProviderResolution, type Resolved } from "../routing/ProviderResolution.js"
import { conclude, type ConcludeOptions } from "./PaymentConclusion.js"
import { PaymentRecords } from "./PaymentRecords.js"
import { newAttempt, sendAttempts, type SendContext } from "./PaymentSending.js"
import { recordSent } from "./PaymentSettlement.js"

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
  /**
   * Written in the transaction that creates the payment, so both commit or neither (an invoice's
   * charge notes its payment): for a payment made without a key.
   */
  readonly whenCreated?: (paymentId: string) => Effect.Effect<void>
  /**
   * Connections routing passes over when it allows another: a dunning retry of a vaulted card goes to
   * the next PSP rather than back to the one that just refused it (that one again when it is the only one).
   */
  readonly avoid?: ReadonlyArray<string>
}

const conclusionOf = (context: PaymentContext | undefined): ConcludeOptions => ({ closingPage: context?.closingPage === true })

const sendContextOf = (context: PaymentContext | undefined): SendContext | undefined =>
  context === undefined ? undefined : { browser: context.browser ?? null, storedCredential: context.storedCredential ?? "none" }

/**
 * POST /v1/payments, from the key's run to the answer:
 * 1. begin the run under the Idempotency-Key (a replay, of a payment as it stands now, ends here);
 * 2. load what an earlier run under the key left, and finish that payment instead;
 * 3. decide: the card, the route, the payment's first states (pure, but for the reads of routing);
 * 4. persist: one write of the payment, `processing` with its first attempt, the key's insert riding;
 * 5. call out: the PSP, with the retries and failover the policy allows;
 * 6. settle: one write of the answer, the key's completion riding when it is the request's answer;
 * 7. conclude: a 3D Secure with no way back is canceled, a failure answered as such;
 * 8. finish the run: the answer kept under the key and given.
 */
export const createPaymentUnderKey = (tenant: Tenant, input: CreatePayment, keyed: KeyedRequest, context?: PaymentContext) =>
  Effect.gen(function*() {
    const keys = yield* IdempotentRequests
    let run = yield* keys.begin(keyed, { reserve: "pay", rides: true })
    while (true) {
      if (run._tag === "Replay") return yield* asItStandsNow(tenant, run.answer, context)
      const earlier = yield* recoveredPayment(tenant, run)
      if (Option.isSome(earlier)) return yield* keys.finish(run, PaymentAnswer, yield* Effect.exit(finish(tenant, earlier.value, context)))
      const decided = yield* Effect.exit(decide(tenant, input, context, run))
      if (Exit.isFailure(decided)) return yield* keys.finish(run, PaymentAnswer, Exit.failCause(decided.cause))
      const persisted = yield* persistUnderKey(tenant, decided.value, run)
      if (Option.isNone(persisted)) {
        // Another request wrote the key first: this one is judged again, as a retry of that one.
        run = yield* keys.claimed(run)
        continue
      }
      const held = heldBy(run)
      const sent = yield* Effect.exit(callOutAndSettle(tenant, persisted.value, decided.value, context, held))
      return yield* keys.finish(Exit.isSuccess(sent) ? sent.value.run : held, PaymentAnswer, Exit.map(sent, ({ payment }) => payment))
    }
  })

/** The same pipeline without a key: for hosts, renewals and checkout, which carry their own idempotency. */
export const createPayment = (tenant: Tenant, input: CreatePayment, context?: PaymentContext) =>
  Effect.gen(function*() {
    const decided = yield* decide(tenant, input, context, noKey)
    const records = yield* PaymentRecords
    const created = records.createThrough(tenant, decided.states, decided.cardRead)
    const { whenCreated } = context ?? {}
    const persisted = whenCreated === undefined
      ? yield* created
      : yield* (yield* Transactions).run(Effect.tap(created, (payment) => whenCreated(payment.id)))
    return (yield* callOutAndSettle(tenant, persisted, decided, context, noKey)).payment
  })

/** Finishes a payment whose request was cut short (crash, 5xx): an unanswered attempt is sent again under the same PSP reference. */
export const resumePayment = (tenant: Tenant, id: string, context?: PaymentContext) =>
  Effect.flatMap(Effect.flatMap(PaymentRecords, (records) => records.load(tenant, id)), (payment) => finish(tenant, payment, context))

/** A payment found as an earlier run left it, finished: its open attempt sent again, then concluded. */
const finish = (tenant: Tenant, payment: Payment, context?: PaymentContext) =>
  Effect.gen(function*() {
    const open = payment.status === "processing" && awaitsOutcome(payment.attempts.at(-1))
    const sent = open ? (yield* recordSent(tenant, yield* sendAttempts(tenant, payment, { resend: true }))).payment : payment
    return yield* conclude(tenant, sent, conclusionOf(context))
  })

/**
 * The payment an earlier run under this key created, if it did: attached in the transaction that
 * created it, or (with an id reserved by the key) maybe not created at all before that run stopped.
 */
const recoveredPayment = (tenant: Tenant, run: Running) =>
  Effect.gen(function*() {
    if (run.recovered === null) return Option.none<Payment>()
    const earlier = yield* Effect.option((yield* PaymentRecords).load(tenant, run.recovered))
    if (Option.isNone(earlier) && run.reserved === null) return yield* Effect.dieMessage(`payment ${run.recovered} vanished`)
    return earlier
  })

/** A replay, of the payment as it stands now when it was still `processing`: the PSP is asked, as reconciliation would. */
const asItStandsNow = (tenant: Tenant, replayed: KeyedAnswer, context?: PaymentContext) =>
  Effect.gen(function*() {
    if (replayed.answer._tag !== "Succeeded") return replayed
    const { id, status } = JSON.parse(replayed.answer.json) as { readonly id: string; readonly status: string }
    if (status !== "processing") return replayed
    const current = yield* Effect.option(
      Effect.orElse(resumePayment(tenant, id, context), () => Effect.flatMap(PaymentRecords, (records) => records.load(tenant, id)))
    )
    return Option.match(current, {
      onNone: () => replayed,
      onSome: (payment): KeyedAnswer => ({ ...replayed, answer: succeededAnswer(PaymentAnswer, payment) })
    })
  })

/**
 * The card a payment is routed by: a vaulted card's facts from the vault (the token refused when it
 * is not this organization's and mode's), else what the request and the token say.
 */
const cardOfPayment = (tenant: Tenant, method: CreatePayment["payment_method"]) =>
  Effect.gen(function*() {
    const token = "token" in method ? method.token : null
    const vault = yield* Effect.serviceOption(CardVault)
    if (Option.isSome(vault) && isVaultToken(token)) {
      const facts = yield* vault.value.forPayment(tenant, token)
      return { card: { brand: facts.brand, last4: facts.last4, country: facts.country }, vaulted: true }
    }
    return { card: yield* knownCardOf(yield* Connectors, method), vaulted: false }
  })

/** What `decide` made: the route, the payment's first states, and a vaulted card's read along with them. */
interface Decided {
  readonly resolved: Resolved
  readonly states: readonly [Payment, Payment]
  readonly cardRead: CardReadAlong | undefined
}

/** The card, the route and the payment's first states: `created`, then `processing` with its first attempt. */
const decide = (tenant: Tenant, input: CreatePayment, context: PaymentContext | undefined, run: Running) =>
  Effect.gen(function*() {
    // Only the organization's own customer, in this mode: another's id would tie the payment (and
    // what the PSP is told of the customer) to someone else's record.
    if (input.customer_id !== undefined && Option.isNone(yield* (yield* CustomersRepository).find(tenant, input.customer_id))) {
      return yield* new PaymentCustomerNotFound({ id: input.customer_id })
    }
    const { card, vaulted } = yield* cardOfPayment(tenant, input.payment_method)
    const resolved = yield* (yield* ProviderResolution).forPayment(tenant, {
      provider: input.provider,
      ...routingFactsOf(input, card),
      vaulted,
      avoid: context?.avoid ?? []
    })
    const id = run.reserved ?? (yield* (yield* IdGenerator).make("pay"))
    const createdAt = yield* now
    const created = new Payment({
      object: "payment",
      id,
      status: "created",
      amount: input.amount,
      amount_captured: 0,
      amount_refunded: 0,
      amount_disputed: 0,
      disputed: false,
      currency: input.currency,
      provider: resolved.connection.name,
      provider_payment_id: null,
      routing: resolved.routing,
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
    const sending = new Payment({ ...created, status: "processing", attempts: [yield* newAttempt(resolved.connection.name)] }, true)
    // A vaulted card's first access is recorded by the payment's own write, which reads the card too.
    const cardRead = vaulted && created.payment_method.token !== null
      ? new CardReadAlong({
        cardId: created.payment_method.token,
        purpose: "authorization",
        paymentId: id,
        connection: resolved.connection.name,
        atMillis: createdAt.epochMillis
      })
      : undefined
    return { resolved, states: [created, sending] as const, cardRead } satisfies Decided
  })

/**
 * Created and sent in one write: the row starts as `processing`, with both events. The key, when it
 * is not written yet, is inserted by that write, and nothing is written (`None`) when it exists. (A
 * key written before, and taken over from a run that stopped, names this payment already.)
 */
const persistUnderKey = (tenant: Tenant, { cardRead, states }: Decided, run: Running) =>
  Effect.flatMap(
    PaymentRecords,
    (records) =>
      run.pending === null
        ? Effect.map(records.createThrough(tenant, states, cardRead), Option.some)
        : records.createWithKey(tenant, states, run.pending, cardRead)
  )

/** The PSP's answer to the first send, recorded (the key's answer riding), then concluded. */
const callOutAndSettle = (tenant: Tenant, payment: Payment, { cardRead, resolved }: Decided, context: PaymentContext | undefined, run: Running) =>
  Effect.gen(function*() {
    const sent = yield* sendAttempts(tenant, payment, {
      resend: false,
      connection: resolved.connection,
      fallbacks: resolved.fallbacks,
      context: sendContextOf(context),
      cardRead
    })
    const recorded = yield* recordSent(tenant, sent, { run, conclusion: conclusionOf(context) })
    return { payment: yield* conclude(tenant, recorded.payment, conclusionOf(context)), run: recorded.run ?? run }
  })
