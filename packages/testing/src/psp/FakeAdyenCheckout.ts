import type * as http from "node:http"
import type { AdyenModification, AdyenPayment } from "./FakeAdyenRecords.js"
import type { PspAnswer } from "./FakePspServer.js"
import { newSchemeTransactionId } from "./SchemeTransactionIds.js"

/** What the fake Adyen holds: its payments, modifications, pending redirects and payments made per key. */
export interface AdyenCheckoutState {
  readonly merchantAccount: string
  readonly payments: Map<string, AdyenPayment>
  readonly modifications: Array<AdyenModification>
  readonly redirects: Map<string, { psp: string; complete: boolean }>
  readonly counts: Map<string, number>
  readonly baseUrl: () => string
}

let sequence = 0
/** Adyen's references: 16 characters, upper-case letters and digits. */
const pspReference = () => `FK${(Date.now() * 1000 + sequence++).toString(36).toUpperCase()}`.padEnd(16, "X").slice(0, 16)

/** The stored card ids this fake knows, and what each does (Adyen's test cards in spirit). */
const REFUSALS: Readonly<Record<string, readonly [string, string]>> = {
  visa_refused: ["Refused", "2"],
  visa_no_funds: ["Not enough balance", "12"],
  visa_expired: ["Expired Card", "6"],
  visa_cvc: ["CVC Declined", "24"],
  visa_acquirer_error: ["Acquirer Error", "4"]
}

/** Adyen's service error body. */
export const serviceError = (status: number, errorCode: string, message: string) =>
  [status, { status, errorCode, message, errorType: status === 422 ? "validation" : "security" }] as PspAnswer

/** A payment's answer as `/payments` and `/payments/details` give it. */
const paymentAnswer = (state: AdyenCheckoutState, payment: AdyenPayment) => {
  const refusal = REFUSALS[payment.result]
  if (refusal !== undefined) {
    return {
      pspReference: payment.pspReference,
      resultCode: "Refused",
      refusalReason: refusal[0],
      refusalReasonCode: refusal[1],
      merchantReference: payment.reference
    }
  }
  switch (payment.result) {
    case "redirect":
      return {
        pspReference: payment.pspReference,
        resultCode: "RedirectShopper",
        merchantReference: payment.reference,
        action: { type: "redirect", method: "GET", paymentMethodType: "scheme", url: `${state.baseUrl()}/fake/3ds/${payment.pspReference}` }
      }
    case "received":
      return { pspReference: payment.pspReference, resultCode: "Received", merchantReference: payment.reference }
    case "authentication_failed":
      return {
        pspReference: payment.pspReference,
        resultCode: "Refused",
        refusalReason: "3D Not Authenticated",
        refusalReasonCode: "11",
        merchantReference: payment.reference
      }
    default:
      return {
        pspReference: payment.pspReference,
        resultCode: "Authorised",
        merchantReference: payment.reference,
        amount: payment.amount,
        additionalData: {
          cardSummary: "1111",
          paymentMethod: "visa",
          // Given for raw cards Adyen does not tokenize (ResponseAdditionalDataCommon).
          ...(payment.networkTxReference === undefined ? {} : { networkTxReference: payment.networkTxReference })
        }
      }
  }
}

/** One Checkout API call: `/payments`, `/payments/details`, a payment's modifications, `/cancels` by reference. */
export const handleCheckout = (state: AdyenCheckoutState, path: string, body: any, key: string | undefined): PspAnswer => {
  if (body?.merchantAccount !== undefined && body.merchantAccount !== state.merchantAccount) {
    return serviceError(403, "901", "Invalid Merchant Account")
  }
  if (path === "/v71/payments") {
    const method = body.paymentMethod ?? {}
    // A raw card (`type: "scheme"` with `number`, from a PCI-compliant sender): Adyen's test numbers decide.
    const stored = typeof method.storedPaymentMethodId === "string"
      ? method.storedPaymentMethodId
      : method.number === "4000000000000002"
      ? "visa_refused"
      : "visa_ok"
    const payment: AdyenPayment = {
      pspReference: pspReference(),
      reference: body.reference,
      amount: body.amount,
      metadata: body.metadata ?? {},
      returnUrl: body.returnUrl,
      result: stored === "visa_3ds" ? "redirect" : stored === "visa_pending" ? "received" : REFUSALS[stored] ? stored : "authorised",
      ...(typeof method.number === "string" ? { networkTxReference: newSchemeTransactionId() } : {})
    }
    if (!["visa_ok", "visa_3ds", "visa_pending"].includes(stored) && REFUSALS[stored] === undefined && method.encryptedCardNumber === undefined) {
      return serviceError(422, "803", "PaymentDetails is not found")
    }
    state.payments.set(payment.pspReference, payment)
    if (key !== undefined) state.counts.set(key, (state.counts.get(key) ?? 0) + 1)
    return [200, paymentAnswer(state, payment)]
  }
  if (path === "/v71/payments/details") {
    const found = state.redirects.get(body?.details?.redirectResult ?? "")
    if (found === undefined) return serviceError(422, "101", "Invalid redirectResult")
    state.redirects.delete(body.details.redirectResult)
    const payment = state.payments.get(found.psp)!
    payment.result = found.complete ? "authorised" : "authentication_failed"
    return [200, paymentAnswer(state, payment)]
  }
  const modification = /^\/v71\/payments\/([^/]+)\/(captures|cancels|refunds)$/.exec(path)
  if (modification !== null) {
    const payment = state.payments.get(modification[1]!)
    if (payment === undefined) return serviceError(422, "167", "Original pspReference required for this operation")
    const kind = modification[2] === "captures" ? "capture" : modification[2] === "cancels" ? "cancel" : "refund"
    const recorded: AdyenModification = {
      kind,
      pspReference: pspReference(),
      paymentPspReference: payment.pspReference,
      reference: body.reference ?? "",
      amount: body.amount ?? null
    }
    state.modifications.push(recorded)
    return [201, {
      merchantAccount: state.merchantAccount,
      paymentPspReference: payment.pspReference,
      pspReference: recorded.pspReference,
      ...(body.reference === undefined ? {} : { reference: body.reference }),
      ...(body.amount === undefined ? {} : { amount: body.amount }),
      status: "received"
    }]
  }
  if (path === "/v71/cancels") {
    const payment = [...state.payments.values()].find((candidate) => candidate.reference === body.paymentReference)
    const recorded: AdyenModification = {
      kind: "cancel",
      pspReference: pspReference(),
      paymentPspReference: payment?.pspReference ?? body.paymentReference,
      reference: body.reference ?? "",
      amount: null
    }
    state.modifications.push(recorded)
    return [201, {
      merchantAccount: state.merchantAccount,
      paymentReference: body.paymentReference,
      pspReference: recorded.pspReference,
      ...(body.reference === undefined ? {} : { reference: body.reference }),
      status: "received"
    }]
  }
  return serviceError(422, "000", `No such endpoint ${path}`)
}

/** The issuer's page of the redirect flow: the shopper comes back with a `redirectResult`. */
export const completeChallenge = (state: AdyenCheckoutState, url: URL, response: http.ServerResponse) => {
  const payment = state.payments.get(url.pathname.split("/")[3] ?? "")
  if (payment === undefined) return response.writeHead(404).end()
  const redirectResult = `rr_${payment.pspReference}_${Math.random().toString(36).slice(2)}`
  state.redirects.set(redirectResult, { psp: payment.pspReference, complete: url.searchParams.get("result") !== "fail" })
  const back = new URL(payment.returnUrl)
  back.searchParams.set("redirectResult", redirectResult)
  response.writeHead(302, { location: back.toString() }).end()
}
