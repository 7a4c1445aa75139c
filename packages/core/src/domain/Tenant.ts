import { Context } from "effect"

/**
 * Whose data a call touches: one organization, in test or in live mode.
 * A `sk_test_` key only ever sees test objects and a `sk_live_` key only live ones.
 */
export interface Tenant {
  readonly organizationId: string
  readonly livemode: boolean
}

/** The tenant of the authenticated request. */
export class CurrentTenant extends Context.Tag("core/CurrentTenant")<CurrentTenant, Tenant>() {}
