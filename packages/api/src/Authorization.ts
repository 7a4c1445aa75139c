import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
import { CurrentTenant } from "@orchestrator/core/domain/Tenant"
import { AuthenticationRequired } from "./CommonErrors.js"

/** `Authorization: Bearer sk_test_…` or `sk_live_…`: the key decides the organization and the mode. */
export class Authorization extends HttpApiMiddleware.Tag<Authorization>()("Authorization", {
  failure: AuthenticationRequired,
  provides: CurrentTenant,
  security: {
    bearer: HttpApiSecurity.bearer.pipe(
      HttpApiSecurity.annotate(OpenApi.Description, "A secret API key: `sk_test_…` for test mode, `sk_live_…` for live mode")
    )
  }
}) {}
