/**
 * What a span may say once it leaves the process. The libraries that make spans record more than an
 * operator needs: the platform's HTTP spans every header and the full URL (a checkout page's
 * `client_secret`, a 3-D Secure return's signed `token` are in query strings), and a failed span
 * the failure's text. Headers are kept by name from a short list, queries are dropped, and every
 * text is cleared of anything shaped like a key, a secret, a card token or a card number.
 */

import { scrubCardNumbers } from "@orchestrator/core"

/** Headers worth seeing in a trace; every other header (credentials, signatures, cookies) is dropped. */
const KEPT_HEADERS = new Set([
  "accept",
  "content-length",
  "content-type",
  "host",
  "idempotency-key",
  "idempotent-replayed",
  "request-id",
  "retry-after",
  "service-version",
  "user-agent"
])

const HEADER_ATTRIBUTE = /^http\.(request|response)\.header\.(.+)$/

/** Shapes of secrets: API keys, webhook secrets, card tokens, checkout client secrets, HTTP credentials. */
const SECRET_SHAPES: ReadonlyArray<RegExp> = [
  /\b[sr]k_(?:test|live)_[A-Za-z0-9]+/g,
  /\bwhsec_[A-Za-z0-9+/=_-]+/g,
  /\btok_[A-Za-z0-9_]+/g,
  /\b[A-Za-z0-9]+_secret_[A-Za-z0-9]+/g,
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi
]

const REDACTED = "[redacted]"

/** `text` with every secret-shaped part and card number replaced. */
export const scrubText = (text: string): string => {
  let scrubbed = text
  for (const shape of SECRET_SHAPES) scrubbed = scrubbed.replace(shape, REDACTED)
  return scrubCardNumbers(scrubbed)
}

/** The attributes that hold an SQL statement's text. */
const STATEMENT_ATTRIBUTES = new Set(["db.query.text", "db.statement"])

const SQL_STRING_LITERAL = /'(?:[^']|'')*'/g

/**
 * An SQL statement's text as it may be exported: as written. Its values are bound parameters (`$1`),
 * never part of it, and its identifiers (`secret_sealed`, `lock_token`) are no secrets, so only what
 * could hold a value is scrubbed: a string literal, and a run of digits shaped like a card number.
 */
export const scrubStatement = (text: string): string => scrubCardNumbers(text.replace(SQL_STRING_LITERAL, (literal) => scrubText(literal)))

/** A URL without its query and fragment, where secrets travel; the path stays (it names the resource). */
export const withoutQuery = (url: string): string => url.replace(/[?#].*$/s, "")

type AttributeValue = string | number | boolean | ReadonlyArray<string | number | boolean | null | undefined> | undefined

const scrubValue = (value: AttributeValue): AttributeValue =>
  typeof value === "string"
    ? scrubText(value)
    : Array.isArray(value)
    ? value.map((each) => typeof each === "string" ? scrubText(each) : each)
    : value

/** A span's attributes as they may be exported: headers from the kept list, no query string, no secret-shaped text. */
export const redactAttributes = <A extends Readonly<Record<string, AttributeValue>>>(attributes: A): A => {
  const kept: Record<string, AttributeValue> = {}
  for (const [key, value] of Object.entries(attributes)) {
    const header = HEADER_ATTRIBUTE.exec(key)
    if (header !== null && !KEPT_HEADERS.has(header[2]!.toLowerCase())) continue
    if (key === "url.query") continue
    kept[key] = typeof value !== "string"
      ? scrubValue(value)
      : key === "url.full"
      ? scrubText(withoutQuery(value))
      : STATEMENT_ATTRIBUTES.has(key)
      ? scrubStatement(value)
      : scrubText(value)
  }
  return kept as A
}

/**
 * The name a server span is shown under: `POST /v1/payments/:id/capture` (method and route template)
 * rather than the platform's `http.server POST`, once the router has said which route answered.
 */
export const serverSpanName = (name: string, attributes: Readonly<Record<string, AttributeValue>>): string => {
  const route = attributes["http.route"]
  const method = attributes["http.request.method"]
  return name.startsWith("http.server ") && typeof route === "string" && typeof method === "string" ? `${method} ${route}` : name
}

/** OpenTelemetry's span status codes: unset, ok, error. */
export type StatusCode = 0 | 1 | 2

/**
 * A server span's status as OpenTelemetry's HTTP conventions say: an error when the answer is a 5xx.
 * The service answers every failure with its error body, so the span's effect succeeds even then.
 */
export const serverSpanStatus = (
  status: { readonly code: StatusCode; readonly message?: string },
  attributes: Readonly<Record<string, AttributeValue>>
): { readonly code: StatusCode; readonly message?: string } => {
  const answered = attributes["http.response.status_code"]
  return typeof answered === "number" && answered >= 500 && status.code !== 2 ? { code: 2, message: `HTTP ${answered}` } : status
}
