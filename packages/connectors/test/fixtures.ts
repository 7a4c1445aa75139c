import { makeSandboxConnector } from "@orchestrator/connectors/sandbox/SandboxConnector"
import { SandboxLedger } from "@orchestrator/connectors/sandbox/SandboxLedger"
import type { Currency } from "@orchestrator/core/domain/Currency"
import type { AuthorizeRequest } from "@orchestrator/core/providers/PaymentConnector"
import { ProviderConnection } from "@orchestrator/core/providers/ProviderConnection"
import { DateTime, Effect } from "effect"

export const BASE_URL = "https://orchestrator.test"
export const RETURN_URL = "https://shop.example/v1/payments/pay_1/return"
export const EUR = "EUR" as Currency

export const makeConnection = (settings: Record<string, unknown> = {}, id = "pcn_test") =>
  new ProviderConnection({
    object: "provider_connection",
    id,
    name: id === "pcn_test" ? "sandbox_a" : `sandbox_${id}`,
    type: "sandbox",
    status: "active",
    last_error: null,
    supported_currencies: null,
    supported_methods: null,
    settings,
    livemode: false,
    created_at: DateTime.unsafeMake(0),
    updated_at: DateTime.unsafeMake(0)
  })

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
  customerId: null,
  ...extra
})

/** A sandbox connector over the ledger in context, for a connection with the given settings. */
export const sandbox = (settings: Record<string, unknown> = {}, connectionId = "pcn_test") =>
  Effect.map(SandboxLedger, (ledger) => ({
    ledger,
    connector: makeSandboxConnector(makeConnection(settings, connectionId), ledger, BASE_URL)
  }))

/** Every test gets its own, empty ledger. */
export const withLedger = <A, E>(effect: Effect.Effect<A, E, SandboxLedger>): Effect.Effect<A, E> =>
  Effect.provide(effect, SandboxLedger.layerMemory)

/** The charge the ledger holds for a pspPaymentId; dies when there is none. */
export const chargeOf = (pspPaymentId: string) =>
  Effect.flatMap(SandboxLedger, (ledger) => Effect.flatten(ledger.findCharge(pspPaymentId))).pipe(Effect.orDie)
