import type { Effect } from "effect"
import { ActionFailed, type ApiClient, callApi } from "./Client.js"
import type { Mode } from "./Session.js"

/** What every page gets: the mode on screen and the API as that mode's key. */
export interface PageContext {
  readonly mode: Mode
  readonly api: <A>(call: (client: ApiClient) => Effect.Effect<A, unknown>) => Promise<A>
}

/**
 * Refuses to show an object of the other mode. The key already decides what the server returns;
 * this is the second lock, so test data can never appear under the live banner or the reverse.
 */
export const sameMode = <A extends { readonly livemode: boolean }>(mode: Mode, objects: ReadonlyArray<A>): ReadonlyArray<A> => {
  if (objects.some((object) => object.livemode !== (mode === "live"))) {
    throw new ActionFailed(`The service answered with data of the other mode; nothing is shown. Sign in again.`, undefined, undefined)
  }
  return objects
}

export const contextFor = (mode: Mode, key: string): PageContext => ({
  mode,
  api: (call) => callApi(key, call)
})
