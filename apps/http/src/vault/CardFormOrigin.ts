import { type HttpApp, HttpServerError, HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"

/** The card form's page, its assets and script, and its one endpoint: what the vault's origin serves. */
const CARD_FORM_PATH = /^\/(?:vault\/|v1\/card_form\/)/

/**
 * With a vault origin of its own (`ORCHESTRATOR_VAULT_ORIGIN`), a request to that host reaches the
 * card form and nothing else, and the card form is found on no other host: no other page of the
 * service (docs, dashboard, hosted checkout) ever shares an origin with the frame holding the number.
 * Hosts are told apart by the `Host` header, which a proxy in front must pass on as sent.
 */
export const onVaultOrigin = (vaultOrigin: string | undefined) => <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E | HttpServerError.RouteNotFound, R> => {
  if (vaultOrigin === undefined) return app
  const vaultHost = new URL(vaultOrigin).host.toLowerCase()
  return Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const onVault = (request.headers.host ?? "").toLowerCase() === vaultHost
    const forVault = CARD_FORM_PATH.test(request.url)
    if (onVault !== forVault) return yield* Effect.fail(new HttpServerError.RouteNotFound({ request }))
    return yield* app
  })
}
