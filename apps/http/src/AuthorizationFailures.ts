import { HttpServerRequest } from "@effect/platform"
import type { TrustedProxyList } from "@orchestrator/application"
import type { AuthenticationFailed, FailedAuthentications } from "@orchestrator/core"
import { Effect } from "effect"
import { clientAddressOf } from "./ClientAddress.js"

/**
 * Runs an authentication for the request's client address: refused at once (429) when the address
 * has no failed authentication left, before any key is looked at; each failure `counts` says is one
 * (a key or secret presented and refused, not a missing one) is counted against the address.
 */
export const throttledByAddress =
  (failures: FailedAuthentications["Type"], proxies: TrustedProxyList) => <A, E, R>(attempt: Effect.Effect<A, E, R>, counts: (error: E) => boolean) =>
    Effect.gen(function*() {
      const address = clientAddressOf(yield* HttpServerRequest.HttpServerRequest, proxies)
      yield* failures.admit(address)
      return yield* attempt.pipe(Effect.tapError((error) => counts(error) ? failures.record(address) : Effect.void))
    })

/**
 * A refusal that may be someone guessing keys: not a request without one, nor a publishable key sent
 * where a secret one is needed (a public key, and a developer's mistake).
 */
export const countsAsGuess = (error: AuthenticationFailed) => error.reason !== "missing" && error.reason !== "publishable"
