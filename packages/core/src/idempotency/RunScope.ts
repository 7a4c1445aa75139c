import { Effect, Option } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import type { StoredResponse } from "./IdempotencyKey.js"
import type { IdempotencyKeysRepository } from "./IdempotencyKeysRepository.js"
import type { IdempotencyScopeShape } from "./IdempotencyScope.js"
import type { KeyClaim } from "./KeyRides.js"

/** Where one run of an operation under a key stands, as its scope learns it. */
export interface KeyRun {
  /** The key is written (and held by this run): started before the run, or claimed by its first write. */
  claimed: boolean
  /** The answer the key keeps, written by the same write as the record it shows. */
  answered: StoredResponse | undefined
}

/** A first write found the key written by another request meanwhile: the request is judged again as a retry. */
export class KeyClaimedElsewhere {
  readonly _tag = "KeyClaimedElsewhere"
}

/**
 * The `IdempotencyScope` of one run of an operation under `key`, held by `lockToken`: `claim` is the
 * key's insert while the key is not written yet; `render` (when the answer rides along) renders the
 * answer the key keeps, and `kept` turns it into the stored form.
 */
export const runScope = (options: {
  readonly keys: IdempotencyKeysRepository["Type"]
  readonly tenant: Tenant
  readonly key: string
  readonly lockToken: string
  readonly found: { readonly recovered: Option.Option<string>; readonly reserved: Option.Option<string> }
  readonly run: KeyRun
  readonly claim: Option.Option<KeyClaim>
  readonly render: ((answer: unknown) => StoredResponse) | undefined
  readonly kept: (response: StoredResponse) => Effect.Effect<StoredResponse>
}): IdempotencyScopeShape => {
  const { key, keys, lockToken, render, run, tenant } = options
  return {
    ...options.found,
    // A request that stalled past its lock has lost the key to a retry, which creates the object
    // itself: this one must not commit a second, so it ends here.
    attach: (resourceId) =>
      run.claimed
        ? Effect.flatMap(keys.attach(tenant, key, lockToken, resourceId), (held) =>
          held ? Effect.void : Effect.dieMessage(`Idempotency-Key ${key} was taken over by a retry`))
        : Effect.dieMessage(`Idempotency-Key ${key} is not written yet: its claim rides with the first write`),
    claimWith: (write) => {
      const pending = run.claimed ? Option.none<KeyClaim>() : options.claim
      return Effect.flatMap(
        write(pending),
        Option.match({
          onNone: () => Option.isSome(pending) ? Effect.die(new KeyClaimedElsewhere()) : Effect.dieMessage("a write without a key to claim wrote nothing"),
          onSome: (written) =>
            Effect.sync(() => {
              run.claimed = true
              return written
            })
        })
      )
    },
    completeWith: (write) => {
      if (render === undefined || !run.claimed) return write(() => Effect.succeedNone)
      let rendered: { readonly answer: unknown; readonly response: StoredResponse } | undefined
      return Effect.tap(
        write((answer) =>
          Effect.flatMap(Effect.sync(() => render(answer)), (response) => {
            rendered = { answer, response }
            return Effect.map(options.kept(response), (stored) => Option.some({ key, lockToken, response: stored }))
          })
        ),
        // Only the very record the answer was rendered from, written: then the key holds that answer.
        (written) =>
          Effect.sync(() => {
            if (Option.isSome(written) && rendered !== undefined && rendered.answer === written.value) run.answered = rendered.response
          })
      )
    }
  }
}
