import type { ExamplePreparation, ExampleRequest } from "@orchestrator/api"

/** Strings a fresh service makes anew: ids (`pay_01…`), secrets (`whsec_…`), tokens, and addresses. */
const FRESH_VALUE = /^(?:[a-z]+_[A-Za-z0-9_]{6,}|https?:\/\/\S+)$/

const kindOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value)

/**
 * Where `fresh` is not shaped like `stored`: a key missing or added, a value of another type, an
 * empty list where the example had items. Values themselves (ids, timestamps) may differ.
 */
export const shapeDifferences = (stored: unknown, fresh: unknown, at = "body"): ReadonlyArray<string> => {
  if (kindOf(stored) !== kindOf(fresh)) return [`${at}: ${kindOf(stored)} in the example, ${kindOf(fresh)} now`]
  if (Array.isArray(stored) && Array.isArray(fresh)) {
    if (stored.length > 0 && fresh.length === 0) return [`${at}: ${stored.length} items in the example, none now`]
    return fresh.flatMap((item, index) => shapeDifferences(stored[Math.min(index, stored.length - 1)], item, `${at}[${index}]`))
  }
  if (kindOf(stored) === "object") {
    const before = stored as Record<string, unknown>
    const now = fresh as Record<string, unknown>
    const keys = [...new Set([...Object.keys(before), ...Object.keys(now)])]
    return keys.flatMap((key) =>
      !(key in now)
        ? [`${at}.${key}: missing now`]
        : !(key in before)
        ? [`${at}.${key}: not in the example`]
        : shapeDifferences(before[key], now[key], `${at}.${key}`)
    )
  }
  return []
}

/** The stored example's ids and the fresh service's, learnt from answers given to the same requests. */
export class IdMap {
  private readonly fresh = new Map<string, string>()

  learn(stored: unknown, fresh: unknown): void {
    if (typeof stored === "string" && typeof fresh === "string") {
      if (stored !== fresh && FRESH_VALUE.test(stored)) this.fresh.set(stored, fresh)
    } else if (Array.isArray(stored) && Array.isArray(fresh)) {
      stored.forEach((item, index) => this.learn(item, fresh[index]))
    } else if (kindOf(stored) === "object" && kindOf(fresh) === "object") {
      const now = fresh as Record<string, unknown>
      for (const [key, value] of Object.entries(stored as Record<string, unknown>)) this.learn(value, now[key])
    }
  }

  set(stored: string, fresh: string): void {
    this.fresh.set(stored, fresh)
  }

  value(stored: string): string {
    return this.fresh.get(stored) ?? stored
  }

  private deep(value: unknown): unknown {
    if (typeof value === "string") return this.value(value)
    if (Array.isArray(value)) return value.map((item) => this.deep(item))
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.deep(item)]))
    }
    return value
  }

  /** The stored request with the fresh service's ids in its path, query and body. */
  request(request: ExampleRequest): ExampleRequest {
    return {
      ...request,
      path: request.path.split("/").map((segment) => this.value(segment)).join("/"),
      ...(request.query === undefined ? {} : { query: this.deep(request.query) as Record<string, string> }),
      ...(request.headers === undefined ? {} : { headers: this.deep(request.headers) as Record<string, string> }),
      ...(request.body === undefined ? {} : { body: this.deep(request.body) }),
      ...(request.form === undefined ? {} : { form: this.deep(request.form) as NonNullable<ExampleRequest["form"]> })
    }
  }

  preparation(prepare: ExamplePreparation | undefined): ExamplePreparation | undefined {
    return prepare !== undefined && "completeChallenge" in prepare ? { completeChallenge: this.value(prepare.completeChallenge) } : prepare
  }
}
