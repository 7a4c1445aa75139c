import { Effect, Option } from "effect"
import { awaitsOutcome, type Payment, PaymentAttempt } from "../../domain/payments/Payment.js"
import { cardUnusable, nextProvider, replaceAttempt, type Settlement, settlementOf, unansweredOf, unavailable } from "../../domain/payments/PaymentOutcomes.js"
import { PaymentPolicy } from "../../domain/payments/PaymentPolicy.js"
import { returnTokenFor } from "../../domain/payments/ReturnToken.js"
import { type AuthorizationOutcome, ConnectorUnavailable } from "../../domain/providers/ConnectorOutcomes.js"
import type { ProviderConnection } from "../../domain/providers/ProviderConnection.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now } from "../../domain/Timestamp.js"
import { type CardReadAlong, CardVault, isVaultToken, type RawCard, type VaultCardAccess } from "../../ports/CardVault.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { KeyMaterial } from "../../ports/KeyMaterial.js"
import type { AuthorizeRequest, BrowserDetails, StoredCredential } from "../../ports/PaymentConnector.js"
import { PublicUrls } from "../../ports/PublicUrls.js"
import { Transactions } from "../../ports/Transactions.js"
import type { CallResult } from "../connections/ProviderCall.js"
import { PaymentCalls } from "./PaymentCalls.js"
import { PaymentRecords } from "./PaymentRecords.js"

/** What only the request that creates a payment knows, for the first send. */
export interface SendContext {
  readonly browser: BrowserDetails | null
  readonly storedCredential: StoredCredential
}

export interface SendOptions {
  /**
   * The attempt may already have reached the PSP (a resume, reconciliation): then "unreachable"
   * proves nothing about the first send, so the payment stays `processing`, and an attempt the PSP
   * acknowledged is asked about instead of sent again.
   */
  readonly resend: boolean
  /** The connection of the open attempt, when the caller just resolved it. */
  readonly connection?: ProviderConnection | undefined
  readonly context?: SendContext | undefined
  /** Connections to fail over to, in order, once the current one has had its tries. */
  readonly fallbacks?: ReadonlyArray<string>
  /** A vaulted card's first access, recorded and read by the payment's creation, for its first attempt. */
  readonly cardRead?: CardReadAlong | undefined
}

/**
 * What a send came to: the PSP's answer to record on the payment as last seen (`settlement` says
 * what it makes of the payment, judged again if someone moved it since), or nothing to record.
 */
export type Sent =
  | { readonly _tag: "Answer"; readonly seen: Payment; readonly settlement: (payment: Payment) => Settlement }
  | { readonly _tag: "Nothing"; readonly payment: Payment }

const answer = (seen: Payment, settlement: (payment: Payment) => Settlement): Sent => ({ _tag: "Answer", seen, settlement })
const nothing = (payment: Payment): Sent => ({ _tag: "Nothing", payment })

/** A fresh attempt on `provider`; its id is the PSP idempotency reference of that attempt. */
export const newAttempt = (provider: string) =>
  Effect.gen(function*() {
    const ids = yield* IdGenerator
    return new PaymentAttempt({
      object: "payment_attempt",
      id: yield* ids.make("att"),
      provider,
      status: "pending",
      provider_payment_id: null,
      error_code: null,
      latency_ms: null,
      created_at: yield* now
      // Made of values chosen here: a constructor that validates them again costs about 50 µs.
    }, true)
  })

/** What the PSP (or the transport, in our words) said about a send, for the attempt record only. */
const providerTextOf = (result: CallResult<AuthorizationOutcome>): string | undefined => {
  switch (result._tag) {
    case "Unavailable":
      return result.providerMessage === undefined ? result.reason : `${result.reason}\n${result.providerMessage}`
    case "NoAnswer":
      return result.reason
    case "Answered":
      return result.value._tag === "Refused" ? result.value.providerMessage : undefined
  }
}

const authorizeRequest = (
  payment: Payment,
  attempt: PaymentAttempt,
  context: SendContext | undefined,
  returnUrl: string,
  vaultCard: VaultCardAccess | undefined
): AuthorizeRequest => ({
  ...(vaultCard === undefined ? {} : { vaultCard }),
  reference: attempt.id,
  paymentId: payment.id,
  amount: payment.amount,
  currency: payment.currency,
  paymentMethod: { type: payment.payment_method.type, token: payment.payment_method.token },
  capture: payment.capture,
  returnUrl,
  description: payment.description,
  customer: payment.customer_id === null ? null : { id: payment.customer_id, email: null, name: null },
  browser: context?.browser ?? null,
  offSession: payment.off_session,
  storedCredential: context?.storedCredential ?? (payment.off_session ? "subsequent" : "none")
})

/**
 * The vaulted card of a payment, for the connector of `connection` to decrypt while it builds its
 * request (each decryption recorded; the first attempt's by the payment's creation, when `cardRead`
 * holds what it read); `undefined` for a PSP's own token. `revealed` is the card as the connector got
 * it, if it did: what the vault still holds for it is known from that.
 */
const vaultCardOf = (
  vault: Option.Option<CardVault["Type"]>,
  tenant: Tenant,
  payment: Payment,
  connection: string,
  cardRead: CardReadAlong | undefined
) => {
  const token = payment.payment_method.token
  if (Option.isNone(vault) || !isVaultToken(token)) return undefined
  let revealed: RawCard | undefined
  const read = cardRead?.take(payment.id, connection)
  const access: VaultCardAccess = {
    reveal: vault.value.reveal(tenant, token, { purpose: "authorization", paymentId: payment.id, connection }, read).pipe(
      Effect.tap((card) => Effect.sync(() => void (revealed = card))),
      Effect.mapError(() => new ConnectorUnavailable({ reason: "the vaulted card could not be opened", cardUnusable: true }))
    )
  }
  return { access, revealed: () => revealed }
}

/**
 * The card's first authorization is over once a PSP answered or may have acted (no answer): its
 * security code goes, whatever the outcome. A PSP that could not be reached saw nothing, and the
 * next one in line still gets it. A later payment of the card, which went without a code and found
 * the scheme's id kept already, has nothing to tell the vault (no round trip to Redis or the database).
 */
const afterVaultedSend = (
  vault: Option.Option<CardVault["Type"]>,
  tenant: Tenant,
  payment: Payment,
  result: CallResult<AuthorizationOutcome>,
  revealed: RawCard | undefined
) => {
  const token = payment.payment_method.token
  if (Option.isNone(vault) || !isVaultToken(token) || result._tag === "Unavailable") return Effect.void
  const networkTransactionId = result._tag === "Answered" && result.value._tag === "Authorized" ? result.value.networkTransactionId ?? null : null
  const settled = revealed !== undefined && revealed.cvc === null && (networkTransactionId === null || revealed.networkTransactionId !== null)
  return settled ? Effect.void : vault.value.authorized(tenant, token, networkTransactionId)
}

/** Our return URL for the payment, with the token that lets its customer (and only them) use it. */
const returnUrlOf = (tenant: Tenant, payment: Payment) =>
  Effect.gen(function*() {
    const { returnSigning } = yield* KeyMaterial
    const token = yield* returnTokenFor(returnSigning, payment.id, tenant, payment.created_at.epochMillis)
    return (yield* PublicUrls).paymentReturn(payment.id, token)
  })

/** Closes a failed attempt and opens the next, on `provider`, in one transaction; `None` when the payment moved on meanwhile. */
const retryWith = (tenant: Tenant, paymentId: string, attemptId: string, code: string, latencyMs: number, provider: string) =>
  Effect.gen(function*() {
    const records = yield* PaymentRecords
    const next = yield* newAttempt(provider)
    return yield* (yield* Transactions).run(Effect.gen(function*() {
      const payment = yield* records.lock(tenant, paymentId)
      const current = payment.attempts.at(-1)
      if (payment.status !== "processing" || current?.id !== attemptId || !awaitsOutcome(current)) return Option.none<Payment>()
      return Option.some(
        yield* records.save(tenant, payment, {
          provider,
          attempts: [...replaceAttempt(payment, attemptId, { status: "failed", error_code: code, latency_ms: latencyMs }), next]
        })
      )
    }))
  })

/**
 * Sends the payment's open attempt: authorize (or, for an attempt the PSP acknowledged, ask about
 * it), with the retries the policy allows on the same connection or the next fallback, each retry a
 * new attempt under its own PSP reference. Returns what to record; the caller writes it.
 */
export const sendAttempts = (tenant: Tenant, start: Payment, options: SendOptions) =>
  Effect.gen(function*() {
    const policy = yield* PaymentPolicy
    const calls = yield* PaymentCalls
    const vault = yield* Effect.serviceOption(CardVault)
    let payment = start
    let resend = options.resend
    let connection = options.connection
    // The same for every send of the payment (a function of the payment alone), and signed before
    // the call's deadline starts, so the deadline measures the PSP and nothing else.
    let returnUrl: string | undefined
    while (true) {
      const attempt = payment.attempts.at(-1)!
      const acknowledged = resend && attempt.provider_payment_id !== null
      if (!acknowledged && returnUrl === undefined) returnUrl = yield* returnUrlOf(tenant, payment)
      const signedUrl = returnUrl
      const vaultCard = vaultCardOf(vault, tenant, payment, attempt.provider, options.cardRead)
      const { latencyMs, result } = yield* calls.call(
        tenant,
        connection?.name === attempt.provider ? connection : attempt.provider,
        (connector) =>
          acknowledged || signedUrl === undefined
            ? connector.syncPayment({ reference: attempt.id, pspPaymentId: attempt.provider_payment_id })
            : connector.authorize({
              ...authorizeRequest(payment, attempt, options.context, signedUrl, vaultCard?.access),
              resend
            })
      )
      if (!acknowledged) yield* afterVaultedSend(vault, tenant, payment, result, vaultCard?.revealed())
      connection = undefined
      yield* calls.keepProviderMessage(tenant, attempt.id, providerTextOf(result))
      // No answer: the PSP may have charged. The attempt ends `unknown`, the payment stays
      // `processing`, and reconciliation asks the PSP under the same reference. Whatever the PSP
      // answers to this call later is never applied: the call was abandoned at the deadline.
      if (result._tag === "NoAnswer") {
        if (acknowledged) return nothing(payment)
        const code = result.timedOut ? "timeout" : "outcome_unknown"
        return answer(payment, (current) => unansweredOf(current, attempt.id, code, latencyMs))
      }
      if (resend && result._tag === "Unavailable") return nothing(payment)
      resend = false
      const outcome = result._tag === "Unavailable" ? (result.cardUnusable === true ? cardUnusable() : unavailable(result.reason)) : result.value
      const next = nextProvider(payment, outcome, policy.retryDecisions, options.fallbacks ?? [])
      if (Option.isSome(next) && outcome._tag === "Refused") {
        const retried = yield* retryWith(tenant, payment.id, attempt.id, outcome.code, latencyMs, next.value)
        if (Option.isNone(retried)) return nothing(yield* Effect.orDie((yield* PaymentRecords).load(tenant, payment.id)))
        payment = retried.value
        continue
      }
      return answer(payment, (current) => settlementOf(current, attempt.id, outcome, latencyMs))
    }
  })
