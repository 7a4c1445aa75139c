import { FetchHttpClient } from "@effect/platform"
import { type AuthorizeRequest, type ConnectorContext, type Currency, type EvidenceFileField, FileResource, type RawCard } from "@orchestrator/core"
import { testConnection } from "@orchestrator/testing"
import { DateTime, Effect, Layer, Redacted } from "effect"
import { PspHttp } from "../src/transport/PspHttp.js"

/** Fetch for every connect timeout: the fakes are local, connecting never hangs. */
export const fetchHttp = Effect.provide(PspHttp, PspHttp.fromHttpClient.pipe(Layer.provide(FetchHttpClient.layer)))

/** Our return URL as the core builds it: its query (the signed token) must reach the PSP and come back intact. */
export const RETURN_URL = "https://orchestrator.test/v1/payments/pay_1/return?token=4102444800.q0mXoZt1b8Qf6-_YvHhR3lT2cN5dE7aJ9wKpLsUiGzA"

export const pspContext = (options: {
  readonly type: string
  readonly baseUrl: string
  readonly credentials: Record<string, string>
  readonly webhookSecret: string
  readonly livemode?: boolean
}): ConnectorContext => ({
  connection: testConnection({
    id: `pcn_${options.type}`,
    name: `${options.type}_test`,
    type: options.type,
    base_url: options.baseUrl,
    livemode: options.livemode ?? false
  }),
  credentials: Effect.succeed(Redacted.make(options.credentials)),
  webhookSecret: Effect.succeed(Redacted.make(options.webhookSecret)),
  publicBaseUrl: "https://orchestrator.test"
})

let counter = 0
export const reference = () => `att_${Date.now().toString(36)}${(counter++).toString(36)}`

export const authorizeWith = (token: string, extra: Partial<AuthorizeRequest> = {}): AuthorizeRequest => ({
  reference: reference(),
  paymentId: "pay_1",
  amount: 1050,
  currency: "EUR" as Currency,
  paymentMethod: { type: "card", token },
  capture: true,
  returnUrl: RETURN_URL,
  description: null,
  customer: null,
  browser: null,
  offSession: false,
  storedCredential: "none",
  ...extra
})

/** A file of ours given as evidence of kind `field`, with its bytes. */
export const evidenceFile = (field: EvidenceFileField, id: string, type: FileResource["type"], contents: Uint8Array, filename: string | null) => ({
  field,
  contents,
  file: new FileResource({
    object: "file",
    id,
    purpose: "dispute_evidence",
    type,
    size: contents.length,
    filename,
    created_at: DateTime.unsafeMake(0),
    livemode: false
  })
})

/** A card as the vault reveals it: its CVC only before the card's first authorization, then the scheme's id of that one. */
export const revealedCard = (card: Partial<RawCard> = {}): RawCard => ({
  number: Redacted.make("4242424242424242"),
  expMonth: 7,
  expYear: new Date().getUTCFullYear() + 2,
  cvc: Redacted.make("123"),
  holderName: "Ada Lovelace",
  brand: "visa",
  networkTransactionId: null,
  ...card
})

/** A payment with a vaulted card, which the connector decrypts while it builds its request. */
export const authorizeVaulted = (card: RawCard, extra: Partial<AuthorizeRequest> = {}): AuthorizeRequest =>
  authorizeWith("pm_0123456789ABCDEFGHJKMNPQRSTV", { vaultCard: { reveal: Effect.succeed(card) }, ...extra })

/** A later charge of a stored card, the customer away (a renewal): no CVC, the first authorization's scheme id. */
export const merchantInitiated = (networkTransactionId: string) =>
  authorizeVaulted(revealedCard({ cvc: null, networkTransactionId }), { offSession: true, storedCredential: "subsequent" })
