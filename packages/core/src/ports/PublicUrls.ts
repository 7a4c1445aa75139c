import { Context } from "effect"

/**
 * Where this service answers from outside: the addresses the core hands to PSPs and customers.
 * The shell that serves those routes says what they are (the HTTP shell's are in
 * `@orchestrator/api/PublicRoutes`); the core only asks, so a host can mount them anywhere.
 */
export class PublicUrls extends Context.Tag("core/PublicUrls")<PublicUrls, {
  /** The origin (and any path prefix) the routes below hang from; connectors build their own pages on it. */
  readonly base: string
  /** Where the PSP sends the customer back after a redirect; `token` proves it is theirs. */
  readonly paymentReturn: (paymentId: string, token: string) => string
  /** Where a connection's PSP posts its webhooks. */
  readonly providerWebhook: (connectionId: string) => string
  /** The hosted checkout page of a session. */
  readonly checkoutPage: (sessionId: string) => string
  /**
   * The origin the vault's card form (and its one endpoint) is served from, apart from every other
   * page (`ORCHESTRATOR_VAULT_ORIGIN`); absent: beside the API, at `base`.
   */
  readonly vaultOrigin?: string | undefined
}>() {}
