import { Effect } from "effect"
import { createHmac } from "node:crypto"
import type * as http from "node:http"
import { fakeControls, type PspAnswer, type PspFault, startFakePspServer } from "../FakePspServer.js"
import type { RecordedExchange } from "../OpenApiContract.js"

/**
 * A local Template API for the connector's tests, written from the PSP's published document and
 * testing guide (never from our connector): its test payment methods decide outcomes, its
 * idempotency header replays the first answer, and every exchange is recorded so the tests hold it
 * against the document. Grow it one documented operation at a time, as the connector grows.
 */

/** An error answer a test can inject on the next POST, in the PSP's shape. */
type TemplateFault = { readonly status: number; readonly code: string }

export interface TemplatePayment {
  readonly id: string
  readonly reference: string
  /** As the PSP read it from the wire, in its own units. */
  readonly amount: number
  readonly currency: string
  readonly returnUrl: string
  status: "authorized" | "captured" | "declined" | "pending" | "action_required" | "canceled"
}

export interface FakeTemplate {
  readonly url: string
  readonly exchanges: Array<RecordedExchange>
  readonly payments: Map<string, TemplatePayment>
  /** Payments created under our reference: a retry or a resend must never make it 2. */
  readonly paymentsFor: (reference: string) => number
  readonly injectFault: (fault: PspFault<TemplateFault>) => void
  /** The next POST is processed but never answered: the connector must time out. */
  readonly dropNextAnswer: () => void
  /** A webhook about a payment, signed as the PSP signs it (replace with its documented scheme). */
  readonly signedWebhook: (id: string, secret: string) => { readonly body: string; readonly headers: Record<string, string> }
}

/** The PSP's test payment methods (from its testing guide) and what each does. */
const OUTCOMES: Readonly<Record<string, TemplatePayment["status"]>> = {
  tok_approved: "captured",
  tok_declined: "declined",
  tok_redirect: "action_required"
}

const error = (status: number, code: string, message: string): PspAnswer => [status, { code, message }]

let sequence = 0
const newId = () => `pay_${(Date.now() + sequence++).toString(36)}`

export const fakeTemplate = Effect.acquireRelease(
  Effect.promise(() => startFakeTemplate()),
  (fake) => Effect.promise(() => fake.close())
)

export const startFakeTemplate = async (): Promise<FakeTemplate & { close: () => Promise<void> }> => {
  const payments = new Map<string, TemplatePayment>()
  let baseUrl = ""
  const view = (payment: TemplatePayment) => ({
    id: payment.id,
    reference: payment.reference,
    status: payment.status,
    amount: payment.amount,
    currency: payment.currency,
    redirect_url: payment.status === "action_required" ? `${baseUrl}/fake/3ds/${payment.id}` : null
  })

  const handle = (method: string, url: URL, body: string): PspAnswer => {
    const parts = url.pathname.split("/").filter((part) => part !== "")
    if (method === "POST" && url.pathname === "/v1/payments") {
      const request = JSON.parse(body)
      const status = OUTCOMES[request.payment_method]
      if (status === undefined) return error(422, "invalid_payment_method", "Unknown payment method.")
      const payment: TemplatePayment = {
        id: newId(),
        reference: request.reference,
        amount: request.amount,
        currency: request.currency,
        returnUrl: request.return_url,
        status: status === "captured" && request.capture === false ? "authorized" : status
      }
      payments.set(payment.id, payment)
      return [201, view(payment)]
    }
    if (method === "GET" && parts[0] === "v1" && parts[1] === "payments" && parts[2] !== undefined) {
      const payment = payments.get(parts[2])
      return payment === undefined ? error(404, "not_found", "No such payment.") : [200, view(payment)]
    }
    return error(404, "not_found", `No operation ${method} ${url.pathname}.`)
  }

  /** The customer at the PSP's page: approving sends them back to the return URL. */
  const challenge = (url: URL, response: http.ServerResponse) => {
    const payment = payments.get(url.pathname.split("/")[3] ?? "")
    if (payment === undefined) return response.writeHead(404).end()
    if (payment.status === "action_required") payment.status = "captured"
    response.writeHead(303, { location: payment.returnUrl }).end()
  }

  const server = await startFakePspServer<TemplateFault>({
    origin: "http://fake.template",
    challenge,
    refuse: (request) => /^Bearer \S+$/.test(request.headers.authorization ?? "") ? undefined : error(401, "unauthorized", "Invalid credentials."),
    keyedMethod: (method) => method === "POST",
    faultAnswer: (fault) => error(fault.status, fault.code, "Injected failure."),
    keyReused: error(422, "idempotency_key_reused", "The key was used with another request."),
    matchesPath: true,
    responseHeaders: () => ({}),
    replayHeaders: {},
    handle: (method, url, body) => handle(method, url, body)
  })
  baseUrl = server.url
  return {
    url: baseUrl,
    ...fakeControls(server),
    payments,
    paymentsFor: (reference) => [...payments.values()].filter((payment) => payment.reference === reference).length,
    signedWebhook: (id, secret) => {
      const body = JSON.stringify({ id: `evt_${id}`, type: "payment.updated", data: view(payments.get(id)!) })
      return { body, headers: { "content-type": "application/json", "template-signature": createHmac("sha256", secret).update(body).digest("hex") } }
    },
    close: server.close
  }
}
