import type { HttpApiClient } from "@effect/platform"
import type { Api } from "@orchestrator/api"
import type { CreatePayment, Currency } from "@orchestrator/core"
import { raw } from "./TestServer.js"

export type Client = HttpApiClient.Client<typeof Api.groups[keyof typeof Api.groups], never, never>

export const EUR = "EUR" as Currency

let counter = 0
/** A fresh Idempotency-Key. */
export const newKey = () => `test-${Date.now()}-${counter++}-${Math.random().toString(36).slice(2)}`

export const paymentWith = (token: string, extra: Partial<CreatePayment> = {}): CreatePayment => ({
  amount: 1050,
  currency: EUR,
  payment_method: { type: "card", token },
  ...extra
})

export const json = (secret: string, key?: string): Record<string, string> => ({
  authorization: `Bearer ${secret}`,
  "content-type": "application/json",
  ...(key === undefined ? {} : { "idempotency-key": key })
})

/** The body that creates a Stripe or Adyen connection on a local fake of that PSP. */
export const fakePspConnection = (
  psp: "stripe" | "adyen",
  options: { readonly name: string; readonly url: string; readonly settings?: Record<string, unknown> }
) => ({
  name: options.name,
  type: psp,
  base_url: options.url,
  credentials: psp === "stripe"
    ? { secret_key: `sk_test_${options.name}` }
    : { api_key: `AQE_${options.name}`, merchant_account: "FakeMerchantECOM" },
  ...(options.settings === undefined ? {} : { settings: options.settings })
})

/** A card token each fake PSP charges without trouble. */
export const goodCardOf = (psp: "stripe" | "adyen") => psp === "stripe" ? "pm_card_visa" : "visa_ok"

/** A merchant's calls to the API: GET without a body, POST with one under a fresh Idempotency-Key. */
export const apiCaller = (baseUrl: string, secret: string) => (path: string, body?: unknown) =>
  raw(`${baseUrl}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: json(secret, body === undefined ? undefined : newKey()),
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

/** A small PDF with the binary comment line real ones have: bytes no text encoding keeps, so an upload must carry them as they are. */
export const EVIDENCE_PDF = new Uint8Array([
  ...new TextEncoder().encode("%PDF-1.4\n%"),
  0xe2,
  0xe3,
  0xcf,
  0xd3,
  ...new TextEncoder().encode("\n1 0 obj\n%%EOF\n")
])

/** Uploads `contents` as a merchant's file for dispute evidence (`POST /v1/files`, multipart as `fetch` writes it). */
export const uploadEvidenceFile = (baseUrl: string, secret: string, contents: Uint8Array<ArrayBuffer>, filename: string) => {
  const form = new FormData()
  form.append("purpose", "dispute_evidence")
  form.append("file", new Blob([contents], { type: "application/pdf" }), filename)
  return raw(`${baseUrl}/v1/files`, { method: "POST", headers: { authorization: `Bearer ${secret}` }, body: form })
}
