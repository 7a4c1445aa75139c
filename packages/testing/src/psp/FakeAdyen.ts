import { Effect } from "effect"
import { createHmac } from "node:crypto"
import * as http from "node:http"
import type { AddressInfo, Socket } from "node:net"
import type { RecordedExchange } from "./OpenApiContract.js"

/**
 * A local Adyen Checkout API v71, written from Adyen's API explorer and its testing guides:
 * `/payments` (the stored card id decides the outcome), 3DS2 in its redirect flow with the shopper
 * sent back to `returnUrl?redirectResult=…`, `/payments/details`, and modifications answered
 * `received`; their outcome comes only by the notifications the tests build with `notification`,
 * signed as Adyen signs them (HMAC-SHA256 under the hex-decoded key, base64). `Idempotency-Key`
 * replays the first answer, and payments are counted per key.
 */

type Fault =
  | "hang"
  | "reset"
  /** Processed at once, answered only after `delayMs` (real time): a PSP slower than our deadline. */
  | { readonly delayMs: number }
  | { readonly status: number; readonly errorCode: string; readonly message?: string }

export interface AdyenPayment {
  readonly pspReference: string
  readonly reference: string
  readonly amount: { readonly value: number; readonly currency: string }
  readonly metadata: Record<string, string>
  readonly returnUrl: string
  result: string
}

export interface AdyenModification {
  readonly kind: "capture" | "cancel" | "refund"
  readonly pspReference: string
  readonly paymentPspReference: string
  readonly reference: string
  readonly amount: { readonly value: number; readonly currency: string } | null
}

/** One notification item, before it is signed. */
export interface NotificationFields {
  readonly pspReference: string
  readonly originalReference?: string
  readonly merchantReference: string
  readonly amount: { readonly value: number; readonly currency: string }
  readonly eventCode: string
  readonly success: boolean
  readonly reason?: string
  readonly additionalData?: Record<string, unknown>
}

export interface FakeAdyen {
  readonly url: string
  readonly merchantAccount: string
  readonly exchanges: Array<RecordedExchange>
  readonly payments: Map<string, AdyenPayment>
  readonly modifications: Array<AdyenModification>
  readonly paymentsFor: (idempotencyKey: string) => number
  injectFault: (fault: Fault) => void
  readonly hungRequests: () => number
  /** A notification (standard webhook) body with each item signed under `hexKey`. */
  readonly notification: (hexKey: string, items: ReadonlyArray<NotificationFields>) => string
  /** The AUTHORISATION notification Adyen sends for a payment, with its metadata echoed. */
  readonly authorisation: (pspReference: string, success: boolean) => NotificationFields
  /** The notification settling a modification (CAPTURE, CANCELLATION, REFUND…). */
  readonly settlement: (modification: AdyenModification, eventCode: string, success: boolean) => NotificationFields
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

/** The signing string and signature, computed here from Adyen's documentation, not from the connector. */
export const adyenSignature = (hexKey: string, item: NotificationFields & { merchantAccountCode: string }) => {
  const signed = [
    item.pspReference,
    item.originalReference ?? "",
    item.merchantAccountCode,
    item.merchantReference,
    item.amount.value,
    item.amount.currency,
    item.eventCode,
    item.success ? "true" : "false"
  ].join(":")
  return createHmac("sha256", Buffer.from(hexKey, "hex")).update(signed, "utf8").digest("base64")
}

export const fakeAdyen = Effect.acquireRelease(
  Effect.promise(() => startFakeAdyen()),
  (fake) => Effect.promise(() => fake.close())
)

export const startFakeAdyen = async (merchantAccount = "FakeMerchantECOM"): Promise<FakeAdyen & { close: () => Promise<void> }> => {
  const exchanges: Array<RecordedExchange> = []
  const payments = new Map<string, AdyenPayment>()
  const modifications: Array<AdyenModification> = []
  const redirects = new Map<string, { psp: string; complete: boolean }>()
  const idempotency = new Map<string, { body: string; status: number; response: string }>()
  const counts = new Map<string, number>()
  const sockets = new Set<Socket>()
  let fault: Fault | null = null
  let hung = 0
  let baseUrl = ""

  const serviceError = (status: number, errorCode: string, message: string) =>
    [status, { status, errorCode, message, errorType: status === 422 ? "validation" : "security" }] as [number, unknown]

  const paymentAnswer = (payment: AdyenPayment) => {
    const refusal = REFUSALS[payment.result]
    if (refusal !== undefined) {
      return { pspReference: payment.pspReference, resultCode: "Refused", refusalReason: refusal[0], refusalReasonCode: refusal[1], merchantReference: payment.reference }
    }
    switch (payment.result) {
      case "redirect":
        return {
          pspReference: payment.pspReference,
          resultCode: "RedirectShopper",
          merchantReference: payment.reference,
          action: { type: "redirect", method: "GET", paymentMethodType: "scheme", url: `${baseUrl}/fake/3ds/${payment.pspReference}` }
        }
      case "received":
        return { pspReference: payment.pspReference, resultCode: "Received", merchantReference: payment.reference }
      case "authentication_failed":
        return { pspReference: payment.pspReference, resultCode: "Refused", refusalReason: "3D Not Authenticated", refusalReasonCode: "11", merchantReference: payment.reference }
      default:
        return {
          pspReference: payment.pspReference,
          resultCode: "Authorised",
          merchantReference: payment.reference,
          amount: payment.amount,
          additionalData: { cardSummary: "1111", paymentMethod: "visa" }
        }
    }
  }

  const handle = (path: string, body: any, key: string | undefined): [number, unknown] => {
    if (body?.merchantAccount !== undefined && body.merchantAccount !== merchantAccount) {
      return serviceError(403, "901", "Invalid Merchant Account")
    }
    if (path === "/v71/payments") {
      const method = body.paymentMethod ?? {}
      const stored = typeof method.storedPaymentMethodId === "string" ? method.storedPaymentMethodId : "visa_ok"
      const payment: AdyenPayment = {
        pspReference: pspReference(),
        reference: body.reference,
        amount: body.amount,
        metadata: body.metadata ?? {},
        returnUrl: body.returnUrl,
        result: stored === "visa_3ds" ? "redirect" : stored === "visa_pending" ? "received" : REFUSALS[stored] ? stored : "authorised"
      }
      if (!["visa_ok", "visa_3ds", "visa_pending"].includes(stored) && REFUSALS[stored] === undefined && method.encryptedCardNumber === undefined) {
        return serviceError(422, "803", "PaymentDetails is not found")
      }
      payments.set(payment.pspReference, payment)
      if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1)
      return [200, paymentAnswer(payment)]
    }
    if (path === "/v71/payments/details") {
      const found = redirects.get(body?.details?.redirectResult ?? "")
      if (found === undefined) return serviceError(422, "101", "Invalid redirectResult")
      redirects.delete(body.details.redirectResult)
      const payment = payments.get(found.psp)!
      payment.result = found.complete ? "authorised" : "authentication_failed"
      return [200, paymentAnswer(payment)]
    }
    const modification = /^\/v71\/payments\/([^/]+)\/(captures|cancels|refunds)$/.exec(path)
    if (modification !== null) {
      const payment = payments.get(modification[1]!)
      if (payment === undefined) return serviceError(422, "167", "Original pspReference required for this operation")
      const kind = modification[2] === "captures" ? "capture" : modification[2] === "cancels" ? "cancel" : "refund"
      const recorded: AdyenModification = {
        kind,
        pspReference: pspReference(),
        paymentPspReference: payment.pspReference,
        reference: body.reference ?? "",
        amount: body.amount ?? null
      }
      modifications.push(recorded)
      return [201, {
        merchantAccount,
        paymentPspReference: payment.pspReference,
        pspReference: recorded.pspReference,
        ...(body.reference === undefined ? {} : { reference: body.reference }),
        ...(body.amount === undefined ? {} : { amount: body.amount }),
        status: "received"
      }]
    }
    if (path === "/v71/cancels") {
      const payment = [...payments.values()].find((candidate) => candidate.reference === body.paymentReference)
      const recorded: AdyenModification = {
        kind: "cancel",
        pspReference: pspReference(),
        paymentPspReference: payment?.pspReference ?? body.paymentReference,
        reference: body.reference ?? "",
        amount: null
      }
      modifications.push(recorded)
      return [201, { merchantAccount, paymentReference: body.paymentReference, pspReference: recorded.pspReference, ...(body.reference === undefined ? {} : { reference: body.reference }), status: "received" }]
    }
    return serviceError(422, "000", `No such endpoint ${path}`)
  }

  /** The issuer's page of the redirect flow: the shopper comes back with a `redirectResult`. */
  const challenge = (url: URL, response: http.ServerResponse) => {
    const payment = payments.get(url.pathname.split("/")[3] ?? "")
    if (payment === undefined) return response.writeHead(404).end()
    const redirectResult = `rr_${payment.pspReference}_${Math.random().toString(36).slice(2)}`
    redirects.set(redirectResult, { psp: payment.pspReference, complete: url.searchParams.get("result") !== "fail" })
    const back = new URL(payment.returnUrl)
    back.searchParams.set("redirectResult", redirectResult)
    response.writeHead(302, { location: back.toString() }).end()
  }

  const server = http.createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      const url = new URL(request.url ?? "/", "http://fake.adyen")
      if (url.pathname.startsWith("/fake/3ds/")) return challenge(url, response)
      const headers = Object.fromEntries(Object.entries(request.headers).map(([key, value]) => [key, Array.isArray(value) ? value.join(",") : value]))
      const answer = (status: number, json: unknown) => {
        const text = JSON.stringify(json)
        exchanges.push({ method: request.method ?? "POST", url: request.url ?? "/", headers, body, status, responseBody: text })
        response.writeHead(status, { "content-type": "application/json" }).end(text)
      }
      if (!request.headers["x-api-key"]) return answer(...serviceError(401, "000", "HTTP Status Response - Unauthorized"))
      const key = request.headers["idempotency-key"] as string | undefined
      // Adyen's documented limit for idempotency keys.
      if (key !== undefined && key.length > 64) return answer(...serviceError(422, "000", "Idempotency-Key longer than 64 characters"))
      const injected = fault
      fault = null
      if (injected !== null && typeof injected === "object" && "status" in injected) {
        return answer(...serviceError(injected.status, injected.errorCode, injected.message ?? "Injected failure"))
      }
      const saved = key === undefined ? undefined : idempotency.get(key)
      let status: number
      let json: unknown
      if (saved !== undefined && saved.body === body) {
        ;[status, json] = [saved.status, JSON.parse(saved.response)]
      } else if (saved !== undefined) {
        ;[status, json] = serviceError(422, "702", "Idempotency key reused with another request")
      } else {
        ;[status, json] = handle(url.pathname, JSON.parse(body), key)
        if (key !== undefined) idempotency.set(key, { body, status, response: JSON.stringify(json) })
      }
      if (injected === "hang") {
        hung++
        return
      }
      if (injected !== null && typeof injected === "object") {
        hung++
        const timer = setTimeout(() => {
          if (!response.destroyed) answer(status, json)
        }, injected.delayMs)
        response.on("close", () => clearTimeout(timer))
        return
      }
      if (injected === "reset") return request.socket.destroy()
      answer(status, json)
    })
  })
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url: baseUrl,
    merchantAccount,
    exchanges,
    payments,
    modifications,
    paymentsFor: (key) => counts.get(key) ?? 0,
    injectFault: (next) => {
      fault = next
    },
    hungRequests: () => hung,
    notification: (hexKey, items) =>
      JSON.stringify({
        live: "false",
        notificationItems: items.map((item) => {
          const full = { ...item, merchantAccountCode: merchantAccount }
          return {
            NotificationRequestItem: {
              ...full,
              success: item.success ? "true" : "false",
              eventDate: "2026-11-22T08:54:45+01:00",
              additionalData: { ...item.additionalData, hmacSignature: adyenSignature(hexKey, full) }
            }
          }
        })
      }),
    authorisation: (psp, success) => {
      const payment = payments.get(psp)!
      return {
        pspReference: psp,
        merchantReference: payment.reference,
        amount: payment.amount,
        eventCode: "AUTHORISATION",
        success,
        ...(success ? {} : { reason: "Refused" }),
        // Adyen echoes the request's metadata, as its webhook document describes it.
        additionalData: { metadata: payment.metadata }
      }
    },
    settlement: (modification, eventCode, success) => {
      const payment = payments.get(modification.paymentPspReference)
      return {
        pspReference: modification.pspReference,
        originalReference: modification.paymentPspReference,
        merchantReference: modification.reference,
        amount: modification.amount ?? payment?.amount ?? { value: 0, currency: "EUR" },
        eventCode,
        success
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}
