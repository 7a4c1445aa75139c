import type { ExamplePreparation, ExampleRequest } from "@orchestrator/api"

/** The answer an earlier step saved under a name (its JSON body). */

export type Saved = (name: string) => any

/** One example to record: a realistic request, built from what earlier steps created. */
export interface ScenarioStep {
  readonly operationId: string
  readonly name: string
  readonly summary: string
  /** The status the sandbox must answer; the recording stops on anything else. */
  readonly status: number
  /** `prepared` is what the preparation produced (the token of a 3D Secure return). */
  readonly request: (saved: Saved, prepared: string | undefined) => ExampleRequest
  readonly prepare?: (saved: Saved) => ExamplePreparation
  /** Keeps the answer's body for later steps. */
  readonly saveAs?: string
  /** Recorded and replayed, but not shown in the document: plumbing for later steps. */
  readonly hidden?: true
}

export const get = (path: string, query?: Record<string, string>): ExampleRequest => ({
  method: "GET",
  path,
  ...(query === undefined ? {} : { query })
})

/**
 * What every stored example's Idempotency-Key starts with: a name no guide and no README command uses
 * (a reader who followed them and then sends an example from `/docs` must not meet their own key with
 * another body, a 422), and which `/docs` replaces with a fresh key at each send (`browser/docs.js`).
 */
export const EXAMPLE_KEY_PREFIX = "example-"

const keyHeader = (key: string | undefined) => key === undefined ? {} : { headers: { "idempotency-key": `${EXAMPLE_KEY_PREFIX}${key}` } }

/** A mutating request; `key` is its Idempotency-Key, readable like a merchant's order number (`example-order-1001`). */
export const post = (path: string, body: unknown, key?: string): ExampleRequest => ({
  method: "POST",
  path,
  ...keyHeader(key),
  ...(body === undefined ? {} : { body })
})

export const patch = (path: string, body: unknown, key?: string): ExampleRequest => ({
  method: "PATCH",
  path,
  ...keyHeader(key),
  body
})

export const del = (path: string): ExampleRequest => ({ method: "DELETE", path })

/** A step with less ceremony: operation, example name, status, summary, request. */
export const step = (
  operationId: string,
  name: string,
  status: number,
  summary: string,
  request: ScenarioStep["request"],
  extra: Pick<ScenarioStep, "saveAs" | "prepare" | "hidden"> = {}
): ScenarioStep => ({ operationId, name, status, summary, request, ...extra })

/** The id of the sandbox connection every new organization has, from the saved list of connections. */
export const sandboxA = (saved: Saved): string => saved("connections").data.find((connection: { name: string }) => connection.name === "sandbox_a").id
