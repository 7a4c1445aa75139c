import { Effect, Option } from "effect"
import type { CheckoutUi } from "../../domain/checkout/CheckoutSession.js"
import { CARD_METHOD, isRedirectMethod, VAULT_CARD_METHOD } from "../../domain/payments/PaymentMethodTypes.js"
import { shownAs } from "../../domain/providers/ProviderConnection.js"
import { displayNameOf } from "../../domain/tenancy/Organization.js"
import type { Tenant } from "../../domain/Tenant.js"
import type { OrganizationsRepository } from "../../ports/OrganizationsRepository.js"
import type { PublicUrls } from "../../ports/PublicUrls.js"
import type { Connectors } from "../connections/Connectors.js"
import type { ProviderResolution } from "../routing/ProviderResolution.js"

/** What routing is told of a session, whatever the method. */
export interface CheckoutFacts {
  readonly amount: number
  readonly currency: string
  readonly country: string | null
}

/**
 * The method the session's card form (`ui.provider`) is routed for: cards whenever they are allowed
 * (no `allowed_methods` means cards), else the first allowed method.
 */
export const formMethodOf = (methods: ReadonlyArray<string> | null): string => methods === null || methods.includes(CARD_METHOD) ? CARD_METHOD : methods[0]!

/**
 * The connections a session pays on: the one of its card form, and one per allowed redirect method,
 * each routed with that method (a rule matching `method: ["paypal"]` applies). `provider` forces the
 * same connection for every method; `excluded` are the providers that already refused the session.
 */
export const resolveCheckoutUi = (
  resolution: ProviderResolution["Type"],
  tenant: Tenant,
  facts: CheckoutFacts,
  methods: ReadonlyArray<string> | null,
  options: {
    /** Who the shopper pays, as they see it (the organization's display name in this mode). */
    readonly merchantName: string | null
    readonly provider?: string | undefined
    readonly excluded: ReadonlyArray<string>
    /** On a reroute: a wallet no connection is left for is no longer offered, cards still are. */
    readonly dropUnroutableWallets?: boolean
    /** The vault's card form for a connection of this type (`vaultFormOf`), or `null`. */
    readonly vaultForm: (type: string) => string | null
  }
) =>
  Effect.gen(function*() {
    const connectionFor = (method: string) =>
      options.provider === undefined
        ? resolution.forCheckout(tenant, { ...facts, method }, options.excluded)
        : Effect.map(resolution.forPayment(tenant, { ...facts, method, provider: options.provider }), (resolved) => resolved.connection)
    const form = yield* connectionFor(formMethodOf(methods))
    const redirects = (methods ?? []).filter(isRedirectMethod)
    const found = yield* Effect.forEach(redirects, (type) =>
      connectionFor(type).pipe(
        Effect.map((connection) => [{ type, provider: connection.name, display_name: shownAs(connection) }]),
        Effect.catchTag("NoProviderAvailable", (error) => options.dropUnroutableWallets === true ? Effect.succeed([]) : Effect.fail(error))
      ))
    const wallets = found.flat()
    const ui: CheckoutUi = {
      merchant_name: options.merchantName,
      provider: form.name,
      display_name: form.display_name,
      type: form.type,
      publishable_key: null,
      card_form_url: options.vaultForm(form.type),
      methods: methods ?? [CARD_METHOD],
      ...(wallets.length === 0 ? {} : { wallets })
    }
    return ui
  })

/**
 * The vault's card form for connections of types that take vaulted cards: the card is typed into the
 * service's form once, and any such PSP (after a reroute too) is paid with it. A connector with a
 * form of its own for checkout (the sandbox's, whose test cards script its answers) keeps it.
 */
export const vaultFormOf = (connectors: Connectors["Type"], urls: PublicUrls["Type"]) => (type: string): string | null =>
  connectors.takes(type, VAULT_CARD_METHOD) && !connectors.ownCheckoutForm(type) ? `${urls.vaultOrigin ?? new URL(urls.base).origin}/vault/card-form` : null

/** Who the shopper pays, as they see it: the organization's display name in the tenant's mode. */
export const merchantNameOf = (organizations: OrganizationsRepository["Type"], tenant: Tenant) =>
  Effect.map(
    organizations.find(tenant.organizationId),
    Option.match({ onNone: () => null, onSome: (organization) => displayNameOf(organization, tenant.livemode) })
  )

/** The connection a confirmation with `method` pays on; `null` when the session does not allow it. */
export const providerForMethod = (
  session: { readonly ui: CheckoutUi; readonly allowed_methods: ReadonlyArray<string> | null },
  method: string
): string | null => {
  if (!(session.allowed_methods ?? [CARD_METHOD]).includes(method)) return null
  if (!isRedirectMethod(method)) return session.ui.provider
  return session.ui.wallets?.find((wallet) => wallet.type === method)?.provider ?? session.ui.provider
}
