/**
 * The examples of the OpenAPI document, as `pnpm docs:examples` records them from the sandbox and
 * stores them in `packages/api/examples/`: one file per operation, each example one real request and
 * the answer the service gave it.
 */

/** A file part of a `multipart/form-data` example: small text-like files only (a PDF's bytes are text). */
export interface ExampleFormFile {
  readonly filename: string
  readonly content_type: string
  readonly text: string
}

/** A request as sent, without the API key (the reader brings their own). */
export interface ExampleRequest {
  readonly method: string
  /** The path with its real ids, `/v1/payments/pay_01…/capture`. */
  readonly path: string
  readonly query?: Readonly<Record<string, string>>
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: unknown
  /** A `multipart/form-data` body instead (a file upload): its fields, and its files as `ExampleFormFile`s. */
  readonly form?: Readonly<Record<string, string | ExampleFormFile>>
  /**
   * Which key the request is sent with: the test key (the default), none (to show the 401), or a
   * live key (the 429 example, whose key has a low rate limit where the examples are recorded).
   */
  readonly auth?: "test" | "none" | "live"
}

/**
 * What must happen just before a request can be sent again on another service, because part of it
 * comes from outside the API's answers.
 */
export type ExamplePreparation =
  /** Complete the sandbox's 3D Secure challenge at this URL; the `token` of the return comes from its redirect. */
  | { readonly completeChallenge: string }
  /** Spend the key's request budget first, so this request is over the rate limit. */
  | { readonly exhaustRateLimit: true }
  /** Send a body over the 1 MiB limit (the stored example leaves it out). */
  | { readonly oversizedBody: true }

export interface ExampleResponse {
  readonly status: number
  /** The headers worth showing (`Location` of a redirect); never the request id. */
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: unknown
}

export interface StoredExample {
  /** The example's key in the document, unique within its operation. */
  readonly name: string
  readonly summary: string
  /** Position in the recording: replaying in this order recreates what later examples refer to. */
  readonly step: number
  readonly request: ExampleRequest
  readonly prepare?: ExamplePreparation
  readonly response: ExampleResponse
  /** A step the scenario needs (a second authorization, a clock to delete) that teaches a reader nothing new: replayed, not shown. */
  readonly hidden?: true
}

/** One operation's file. */
export interface OperationExamples {
  readonly operationId: string
  readonly method: string
  /** The path as the document writes it, `/v1/payments/{id}/capture`. */
  readonly path: string
  readonly examples: ReadonlyArray<StoredExample>
}

/** One event payload per type, as a webhook endpoint receives it. */
export interface EventExample {
  readonly type: string
  readonly payload: unknown
}
