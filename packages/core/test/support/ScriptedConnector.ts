import { Clock, Effect, Layer, Schema } from "effect"
import {
  AuthorizationOutcome,
  CaptureOutcome,
  ConnectorOutcomeUnknown,
  ConnectorUnavailable,
  ModificationOutcome,
  RefundOutcome,
  WebhookRejected
} from "../../src/domain/providers/ConnectorOutcomes.js"
import { ConnectorCatalog } from "../../src/features/connections/Connectors.js"
import type { AuthorizeRequest, DisputeOperations, PaymentConnector } from "../../src/ports/PaymentConnector.js"

const card = { brand: "visa", last4: "4242", country: "US" }

/** What the scripted PSP does for a token. `hang` never answers; `unavailable` refuses the connection. */
export type Script = AuthorizationOutcome | "unavailable" | "hang"

/**
 * A PSP fake for the core's tests: outcomes by token, a record of every reference it was sent, and
 * idempotency like a real PSP (a reference seen before gets the same answer, no new charge).
 */
export const makeScriptedConnector = (scripts: Record<string, ReadonlyArray<Script>>) => {
  const answers = new Map<string, AuthorizationOutcome>()
  const calls: Array<AuthorizeRequest> = []
  /** When each authorize call started, by reference, on the (test) clock. */
  const sends: Array<{ readonly reference: string; readonly at: number }> = []
  /** Every reference the PSP was asked about (`syncPayment`), in order. */
  const syncs: Array<string> = []
  const refunds = new Map<string, RefundOutcome>()
  let refundScript: RefundOutcome | "unavailable" = RefundOutcome.Succeeded({ pspRefundId: "re_1" })
  let captureHangs = false
  /** None unless a test gives some (before the connection is first used): like Mollie, the scripted PSP takes no answer to disputes by default. */
  let disputeOperations: DisputeOperations | undefined = undefined

  const connector: PaymentConnector = {
    authorize: (request) =>
      Effect.flatMap(Clock.currentTimeMillis, (at) => {
        calls.push(request)
        sends.push({ reference: request.reference, at })
        const seen = answers.get(request.reference)
        if (seen !== undefined) return Effect.succeed(seen)
        const tries = calls.filter((call) => call.paymentMethod.token === request.paymentMethod.token).length
        const script = scripts[request.paymentMethod.token ?? ""] ?? []
        const step = script[Math.min(tries - 1, script.length - 1)] ??
          AuthorizationOutcome.Authorized({
            pspPaymentId: `psp_${request.reference}`,
            captured: request.capture,
            amountCaptured: request.capture ? request.amount : 0,
            card
          })
        if (step === "unavailable") return Effect.fail(new ConnectorUnavailable({ reason: "scripted outage" }))
        if (step === "hang") return Effect.never
        answers.set(request.reference, step)
        return Effect.succeed(step)
      }),
    syncPayment: ({ reference }) =>
      Effect.sync(() => {
        syncs.push(reference)
        return answers.get(reference) ?? AuthorizationOutcome.Unknown()
      }),
    capture: ({ amount }) => captureHangs ? Effect.never : Effect.succeed(CaptureOutcome.Captured({ amount })),
    cancel: () => Effect.succeed(ModificationOutcome.Done()),
    refund: ({ reference }) =>
      Effect.suspend(() => {
        if (refundScript === "unavailable") return Effect.fail(new ConnectorUnavailable({ reason: "scripted outage" }))
        const outcome = refunds.get(reference) ?? refundScript
        refunds.set(reference, outcome)
        return Effect.succeed(outcome)
      }),
    syncRefund: ({ reference }) => Effect.sync(() => refunds.get(reference) ?? RefundOutcome.Unknown()),
    verifyWebhook: () => Effect.fail(new WebhookRejected({ reason: "the scripted PSP sends no webhooks" }))
  }

  return {
    connector,
    calls,
    sends,
    syncs,
    /** Settles what a `hang` left open, as if the PSP had finished the charge meanwhile. */
    settleLater: (reference: string, outcome: AuthorizationOutcome) => answers.set(reference, outcome),
    setRefundOutcome: (outcome: RefundOutcome | "unavailable") => {
      refundScript = outcome
    },
    setCaptureHangs: (hangs: boolean) => {
      captureHangs = hangs
    },
    setDisputeOperations: (operations: DisputeOperations | undefined) => {
      disputeOperations = operations
    },
    /** The token of the return URL the PSP was last sent for payment `id`, as the customer brings it back. */
    returnTokenOf: (id: string) => {
      const sent = calls.filter((call) => call.paymentId === id).at(-1)
      return sent === undefined ? undefined : new URL(sent.returnUrl).searchParams.get("token") ?? undefined
    },
    layer: Layer.succeed(ConnectorCatalog, {
      sandbox: {
        settings: Schema.Unknown,
        credentialKeys: [],
        make: () => disputeOperations === undefined ? connector : { ...connector, disputes: disputeOperations }
      }
    })
  }
}

export { ConnectorOutcomeUnknown }
