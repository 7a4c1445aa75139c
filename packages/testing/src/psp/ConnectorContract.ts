import { describe, expect, it } from "@effect/vitest"
import type { AuthorizationOutcome, AuthorizeRequest, Currency, IncomingWebhook, PaymentConnector } from "@orchestrator/core"
import { Effect, Either, Fiber, Option, type Scope, TestClock } from "effect"

/** A connector wired to its PSP's local fake, with the fake's controls the shared contract needs. */
export interface ContractRig {
  readonly connector: PaymentConnector
  /** The payment method for each scenario, e.g. {type:"card",token:"tok_visa"} or {type:"paypal",token:""}. */
  readonly method: (outcome: "approved" | "declined" | "redirect") => { readonly type: string; readonly token: string }
  /** The code our port answers for the `declined` method (e.g. "card_declined"). */
  readonly declineCode: string
  /** Acts as the customer at a redirect (3DS challenge, PayPal approval, Mollie checkout) and approves. */
  readonly completeRedirect: (redirectUrl: string) => Effect.Effect<void>
  /** Whether `capture: false` leaves an authorization to capture later (false skips manual-capture scenarios). */
  readonly manualCapture: boolean
  /**
   * The next request the fake receives is processed but never answered: the connector must time out.
   * "Request" means one that creates or changes a payment: a PSP whose calls need a token first
   * (PayPal's OAuth) answers the token call as usual and drops the answer to the payment's.
   */
  readonly dropNextAnswer: () => void
  /** How many payments the fake holds under our reference: a retry or resend must never make it 2. */
  readonly paymentsFor: (reference: string) => number
  /** The amount the fake recorded for our reference, in minor units, read from the wire as the PSP reads it. */
  readonly recordedAmount: (reference: string) => number | null
  /** A webhook the PSP would send now about this payment, signed as the PSP signs it, or forged. */
  readonly paymentWebhook: (pspPaymentId: string, options: { readonly forged: boolean }) => Effect.Effect<IncomingWebhook>
  /** Every exchange so far checked against the PSP's published document: the violations, [] when none. */
  readonly violations: () => ReadonlyArray<string>
  /** Currencies whose minor-unit exponent the wire format must get right (e.g. JPY, EUR, KWD where supported). */
  readonly currencies: ReadonlyArray<Currency>
  /**
   * For a PSP whose return needs the customer's query to finish (Adyen's `redirectResult`, read by
   * `completeAction`): acts as the customer like `completeRedirect` and answers the query parameters
   * they came back to our return URL with. Without it, the contract asks `syncPayment`, as our
   * return page does.
   */
  readonly completeRedirectReturning?: (redirectUrl: string) => Effect.Effect<Readonly<Record<string, string>>>
  /**
   * The PSP answers captures "received" and settles them by webhook (Adyen): a capture may answer
   * `Pending` instead of `Captured`. Default false: a capture answers `Captured` with the amount.
   */
  readonly captureSettlesLater?: boolean
  /** Whether the PSP captures part of an authorization (default true); false captures the whole. */
  readonly partialCapture?: boolean
  /**
   * Whether the PSP can find a payment by our reference alone (Stripe's search). Default true. Without
   * it (Adyen) `syncPayment` with no PSP id answers `Unknown`, and the resend under the same
   * idempotency key is what settles a lost answer.
   */
  readonly findsByReference?: boolean
  /**
   * A wallet (PayPal): every payment waits for the payer's approval, so `approved` answers
   * `ActionRequired` too, and the contract approves (`completeRedirect`) wherever it needs an
   * authorization. A repeat, a sync or a resend before approval may answer `ActionRequired` for the
   * same payment. Default false.
   */
  readonly approvalRequired?: boolean
  /** How far to move the TestClock for the connector to give up (default: its `deadlineMs`, else 120 s). */
  readonly timeoutMs?: number
}

export interface ConnectorHarness {
  readonly name: string
  /** Starts the fake and a connector configured against it, for one test. */
  readonly start: Effect.Effect<ContractRig, never, Scope.Scope>
}

/** Our return URL as the core builds it: its query (the signed token) must reach the PSP and come back intact. */
const RETURN_URL = "https://orchestrator.test/v1/payments/pay_contract/return?token=4102444800.q0mXoZt1b8Qf6-_YvHhR3lT2cN5dE7aJ9wKpLsUiGzA"

let counter = 0
const newReference = () => `att_ct${Date.now().toString(36)}${(counter++).toString(36)}`

const request = (
  rig: ContractRig,
  outcome: "approved" | "declined" | "redirect",
  extra: Partial<AuthorizeRequest> = {}
): AuthorizeRequest => ({
  reference: newReference(),
  paymentId: "pay_contract",
  amount: 1050,
  currency: "EUR" as Currency,
  paymentMethod: rig.method(outcome),
  capture: true,
  returnUrl: RETURN_URL,
  description: "Contract order",
  customer: { id: "cus_contract", email: "shopper@example.com", name: "Contract Shopper" },
  browser: null,
  offSession: false,
  storedCredential: "none",
  ...extra
})

/** An authorization the scenario needs before its own step; anything else fails the test with what came. */
const authorized = (rig: ContractRig, extra: Partial<AuthorizeRequest> = {}) =>
  Effect.gen(function*() {
    const sent = request(rig, "approved", extra)
    const first = yield* rig.connector.authorize(sent)
    const outcome = first._tag === "ActionRequired" && rig.approvalRequired === true ? yield* settleReturn(rig, sent, first) : first
    if (outcome._tag !== "Authorized") return yield* Effect.die(`expected Authorized, got ${JSON.stringify(outcome)}`)
    return { sent, outcome }
  })

const expectNoViolations = (rig: ContractRig) => expect(rig.violations()).toEqual([])

/**
 * Waits (event-loop turns, no clock) until the fake holds a payment under `reference`, the dropped
 * request having arrived, or until the call ended on its own (it did not wait for the answer).
 */
const arrived = (rig: ContractRig, reference: string, call: Fiber.RuntimeFiber<unknown, unknown>) =>
  Effect.gen(function*() {
    for (let turn = 0; turn < 200_000 && rig.paymentsFor(reference) === 0; turn++) {
      if (Option.isSome(yield* Fiber.poll(call))) break
      yield* Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))
    }
    return rig.paymentsFor(reference)
  })

/** The payment as our return page settles it once the customer is back: `completeAction` with their query, else a sync. */
const settleReturn = (rig: ContractRig, sent: AuthorizeRequest, pending: { readonly pspPaymentId: string; readonly redirectUrl: string }) =>
  Effect.gen(function*() {
    const { completeAction } = rig.connector
    if (rig.completeRedirectReturning !== undefined && completeAction !== undefined) {
      const details = yield* rig.completeRedirectReturning(pending.redirectUrl)
      return yield* completeAction({
        reference: sent.reference,
        pspPaymentId: pending.pspPaymentId,
        amount: sent.amount,
        currency: sent.currency,
        capture: sent.capture,
        details
      })
    }
    yield* rig.completeRedirect(pending.redirectUrl)
    return yield* rig.connector.syncPayment({ reference: sent.reference, pspPaymentId: pending.pspPaymentId })
  })

const isSettled = (outcome: AuthorizationOutcome) => outcome._tag === "Authorized" || outcome._tag === "Unknown"

type Scenario = readonly [name: string, body: (rig: ContractRig) => Effect.Effect<void, unknown>]

/** The contract: each scenario something a merchant would notice, run on a rig of its own. */
const SCENARIOS: ReadonlyArray<Scenario> = [
  ["authorizes and captures an approved payment; the same reference again answers the same, one payment", (rig) =>
    Effect.gen(function*() {
      const { outcome, sent } = yield* authorized(rig)
      expect(outcome).toMatchObject({ captured: true, amountCaptured: sent.amount })
      const again = yield* rig.connector.authorize(sent)
      if (rig.approvalRequired === true) expect(again).toMatchObject({ pspPaymentId: outcome.pspPaymentId })
      else expect(again).toEqual(outcome)
      expect(rig.paymentsFor(sent.reference)).toBe(1)
      expect(rig.recordedAmount(sent.reference)).toBe(sent.amount)
    })],

  ["refuses a declined payment with our decline code, not worth retrying", (rig) =>
    Effect.gen(function*() {
      const outcome = yield* rig.connector.authorize(request(rig, "declined"))
      expect(outcome).toMatchObject({ _tag: "Refused", code: rig.declineCode, retryable: false })
    })],

  ["sends the customer to the PSP's page, and after they approve, the payment is authorized", (rig) =>
    Effect.gen(function*() {
      const sent = request(rig, "redirect")
      const outcome = yield* rig.connector.authorize(sent)
      if (outcome._tag !== "ActionRequired") return expect.fail(`expected ActionRequired, got ${JSON.stringify(outcome)}`)
      expect(new URL(outcome.redirectUrl).protocol).toMatch(/^https?:$/)
      expect(yield* settleReturn(rig, sent, outcome)).toMatchObject({ _tag: "Authorized", pspPaymentId: outcome.pspPaymentId })
      expect(rig.paymentsFor(sent.reference)).toBe(1)
    })],

  ["manual capture: an authorization waits, then the amount asked is captured once", (rig) =>
    Effect.gen(function*() {
      if (!rig.manualCapture) return
      const { outcome, sent } = yield* authorized(rig, { capture: false })
      expect(outcome).toMatchObject({ captured: false, amountCaptured: 0 })
      const amount = rig.partialCapture === false ? sent.amount : 600
      const capture = { reference: `${sent.reference}_capture`, pspPaymentId: outcome.pspPaymentId, amount, currency: sent.currency }
      const captured = yield* rig.connector.capture(capture)
      const expected = rig.captureSettlesLater === true && captured._tag === "Pending" ? { _tag: "Pending" } : { _tag: "Captured", amount }
      expect(captured).toEqual(expected)
      // The same capture sent again (a retry after a lost answer) answers the first, and takes nothing more.
      expect(yield* rig.connector.capture(capture)).toEqual(captured)
    })],

  ["cancels an authorization not captured yet", (rig) =>
    Effect.gen(function*() {
      if (!rig.manualCapture) return
      const { outcome, sent } = yield* authorized(rig, { capture: false })
      const canceled = yield* rig.connector.cancel({ reference: `${sent.reference}_cancel`, pspPaymentId: outcome.pspPaymentId })
      expect(["Done", "Pending"]).toContain(canceled._tag)
    })],

  ["refunds part, then the rest; a refund beyond what is left does not succeed", (rig) =>
    Effect.gen(function*() {
      const { outcome, sent } = yield* authorized(rig)
      const refund = (reference: string, amount: number) =>
        rig.connector.refund({ reference, pspPaymentId: outcome.pspPaymentId, amount, currency: sent.currency, reason: "requested_by_customer" })
      const partial = yield* refund(`${sent.reference}_r1`, 400)
      expect(["Succeeded", "Pending"]).toContain(partial._tag)
      const rest = yield* refund(`${sent.reference}_r2`, sent.amount - 400)
      expect(["Succeeded", "Pending"]).toContain(rest._tag)
      const beyond = yield* refund(`${sent.reference}_r3`, 100)
      expect(beyond._tag).not.toBe("Succeeded")
    })],

  ["no answer in time is an unknown outcome; reconciliation and a resend settle it with one payment", (rig) =>
    Effect.gen(function*() {
      const sent = request(rig, "approved")
      rig.dropNextAnswer()
      const pending = yield* Effect.fork(rig.connector.authorize(sent))
      if ((yield* arrived(rig, sent.reference, pending)) === 0) {
        return expect.fail(`the request never reached the fake; the call ended with ${JSON.stringify(yield* Effect.either(Fiber.join(pending)))}`)
      }
      // Time runs out on the connector's clock (TestClock, no sleeping).
      yield* TestClock.adjust(rig.timeoutMs ?? rig.connector.deadlineMs ?? 120_000)
      expect(yield* Effect.flip(Fiber.join(pending))).toMatchObject({ _tag: "ConnectorOutcomeUnknown" })

      // Before the payer approved, a wallet's payment waits for them: that answer settles it too.
      const waiting = (outcome: AuthorizationOutcome) => rig.approvalRequired === true && outcome._tag === "ActionRequired"
      const synced = yield* rig.connector.syncPayment({ reference: sent.reference, pspPaymentId: null })
      if (rig.findsByReference === false) expect(isSettled(synced) || waiting(synced)).toBe(true)
      else if (!waiting(synced)) expect(synced).toMatchObject({ _tag: "Authorized", captured: true })
      const resent = yield* rig.connector.authorize({ ...sent, resend: true })
      if (!waiting(resent)) expect(resent).toMatchObject({ _tag: "Authorized", captured: true, amountCaptured: sent.amount })
      if (synced._tag === "Authorized" || synced._tag === "ActionRequired") expect(resent).toMatchObject({ pspPaymentId: synced.pspPaymentId })
      expect(rig.paymentsFor(sent.reference)).toBe(1)
    })],

  ["a webhook signed by the PSP is read as news of that payment; a forged one is refused", (rig) =>
    Effect.gen(function*() {
      const { outcome, sent } = yield* authorized(rig)
      const events = yield* rig.connector.verifyWebhook(yield* rig.paymentWebhook(outcome.pspPaymentId, { forged: false }))
      const about = events.filter((event) =>
        event._tag === "PaymentUpdated" && (event.pspPaymentId === outcome.pspPaymentId || event.reference === sent.reference)
      )
      expect(about).toHaveLength(1)
      expect(about[0]).toMatchObject({ outcome: { _tag: "Authorized" } })
      const forged = yield* Effect.either(rig.connector.verifyWebhook(yield* rig.paymentWebhook(outcome.pspPaymentId, { forged: true })))
      expect(Either.isLeft(forged) ? forged.left._tag : "accepted").toBe("WebhookRejected")
    })],

  ["amounts reach the PSP in each currency's minor units", (rig) =>
    Effect.gen(function*() {
      expect(rig.currencies.length).toBeGreaterThan(0)
      for (const currency of rig.currencies) {
        // Representable in every exponent (and by PSPs that want three-decimal amounts to end in 0).
        const { outcome, sent } = yield* authorized(rig, { amount: 12_340, currency })
        expect([currency, outcome]).toMatchObject([currency, { _tag: "Authorized", amountCaptured: 12_340 }])
        expect([currency, rig.recordedAmount(sent.reference)]).toEqual([currency, 12_340])
      }
    })]
]

/** Registers the shared contract's tests (describe/it from @effect/vitest) for one connector. */
export const connectorContract = (harness: ConnectorHarness): void => {
  describe(`${harness.name}: the shared connector contract`, () => {
    for (const [name, body] of SCENARIOS) {
      it.scoped(name, () =>
        Effect.gen(function*() {
          const rig = yield* harness.start
          // A connector's failure (ConnectorUnavailable, …) shown with what it says, not as "An error has occurred".
          yield* Effect.catchAll(body(rig), (error) => Effect.dieMessage(`the connector failed: ${JSON.stringify(error)}`))
          expectNoViolations(rig)
        }))
    }
  })
}
