import { type AuthorizeRequest, type ConnectorContext, type Currency, MissingSecret, type ProviderConnection } from "@orchestrator/core"
import { testConnection } from "@orchestrator/testing"
import { Effect, Redacted, Schema } from "effect"
import { makeSandboxConnector } from "../src/sandbox/SandboxConnector.js"
import { SandboxLedger } from "../src/sandbox/SandboxLedger.js"
import { SandboxSettings } from "../src/sandbox/SandboxSettings.js"

export const BASE_URL = "https://orchestrator.test"
/** Our return URL as the core builds it: its query (the signed token) must reach the PSP and come back intact. */
export const RETURN_URL = "https://shop.example/v1/payments/pay_1/return?token=4102444800.q0mXoZt1b8Qf6-_YvHhR3lT2cN5dE7aJ9wKpLsUiGzA"
export const EUR = "EUR" as Currency
export const WEBHOOK_SECRET = "whsec_sandbox_test_secret"

export const makeConnection = (settings: Record<string, unknown> = {}, id = "pcn_test") =>
  testConnection({ id, name: id === "pcn_test" ? "sandbox_a" : `sandbox_${id}`, settings })

export const authorizeRequest = (
  token: string,
  extra: Partial<AuthorizeRequest> = {}
): AuthorizeRequest => ({
  reference: "att_1",
  paymentId: "pay_1",
  amount: 1050,
  currency: EUR,
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

/** What the registry hands a sandbox connector: no credentials, a webhook secret, the public URL. */
export const contextFor = (connection: ProviderConnection, baseUrl = BASE_URL): ConnectorContext => ({
  connection,
  credentials: Effect.fail(new MissingSecret({ what: "credentials" })),
  webhookSecret: Effect.succeed(Redacted.make(WEBHOOK_SECRET)),
  publicBaseUrl: baseUrl
})

/** A sandbox connector for `connection`, over `ledger`, with the connection's own settings. */
export const sandboxConnector = (ledger: SandboxLedger["Type"], connection: ProviderConnection, baseUrl = BASE_URL) =>
  makeSandboxConnector(ledger, contextFor(connection, baseUrl), Schema.decodeUnknownSync(SandboxSettings)(connection.settings))

/** A sandbox connector over the ledger in context, for a connection with the given settings. */
export const sandbox = (settings: Record<string, unknown> = {}, connectionId = "pcn_test") =>
  Effect.map(SandboxLedger, (ledger) => ({
    ledger,
    connector: sandboxConnector(ledger, makeConnection(settings, connectionId))
  }))

/** Every test gets its own, empty ledger. */
export const withLedger = <A, E>(effect: Effect.Effect<A, E, SandboxLedger>): Effect.Effect<A, E> => Effect.provide(effect, SandboxLedger.layerMemory)

/** The charge the ledger holds for a pspPaymentId; dies when there is none. */
export const chargeOf = (pspPaymentId: string) => Effect.flatMap(SandboxLedger, (ledger) => Effect.flatten(ledger.findCharge(pspPaymentId))).pipe(Effect.orDie)
