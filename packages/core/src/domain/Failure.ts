import { type Cause, Data } from "effect"
import { echoed } from "./EchoedText.js"

/**
 * What a failure means to any caller, in words no transport owns; the HTTP API gives each kind one
 * status and error type (`packages/api/src/FailureKinds.ts`), the command-line tool its exit code.
 */
export type FailureKind =
  /** The request is malformed or names something it may not use. */
  | "invalid"
  /** No credentials, or credentials that open nothing. */
  | "unauthenticated"
  /** The PSP refused the money movement. */
  | "refused"
  /** No such object for this caller. */
  | "not_found"
  /** The object's state does not allow this (now). */
  | "conflict"
  /** Well-formed, but it cannot apply. */
  | "unprocessable"
  /** An earlier request with this Idempotency-Key is still running. */
  | "key_in_use"
  /** This Idempotency-Key was used for another request. */
  | "key_reused"
  /** Too many requests; `retryAfterMs` says when to try again. */
  | "rate_limited"
  /** The PSP could not be reached; nothing happened there. */
  | "provider_unavailable"
  /** The PSP did not answer in time. */
  | "provider_timeout"

/**
 * Kinds that say nothing happened yet but may if asked again (the PSP unreachable, or silent): their
 * answer is given but not kept under an Idempotency-Key, so a retry with the key tries again.
 */
export const transientKinds: ReadonlySet<FailureKind> = new Set(["provider_unavailable", "provider_timeout", "rate_limited"])

/** What a kind of failure is, declared once on its class. */
export interface FailureSpec {
  readonly kind: FailureKind
  /** The codes it may carry, the first one by default; none when the code comes from outside (a decline code). */
  readonly codes?: ReadonlyArray<string>
  /** What it means, for the reference documentation. */
  readonly description: string
}

/** What one failure tells the caller: the message, and where they apply, the code, the field at fault and the object concerned. */
export interface FailureAnswer {
  readonly message: string
  readonly code?: string
  readonly param?: string | null
  /** The object the failure concerns, shown inside it (a declined payment, a refused refund), by its `object`. */
  readonly concerns?: { readonly object: string }
  /** When to try again, for a rate limit. */
  readonly retryAfterMs?: number
}

/** An instance of a failure class: tagged, and able to say what it tells the caller. */
export interface Failing {
  readonly _tag: string
  readonly answer: FailureAnswer
}

/** A failure class, with its tag and spec: what the API derives its error class from. */
export interface FailureClass<Tag extends string = string> {
  readonly failure: FailureSpec & { readonly tag: Tag }
  new(...args: ReadonlyArray<never>): Failing & { readonly _tag: Tag }
}

/** The tag of a failure class's instances. */
export type TagOf<C extends FailureClass> = InstanceType<C>["_tag"]

/**
 * The base of a failure class: a tagged error whose kind, codes and description are declared here,
 * once. The class adds its fields and its `answer`:
 * `class PlanNotFound extends ServiceFailure("PlanNotFound", {...})<{ readonly id: string }> { get answer() {…} }`.
 */
export const ServiceFailure = <const Tag extends string>(tag: Tag, spec: FailureSpec) => Object.assign(Data.TaggedError(tag), { failure: { ...spec, tag } })

/** An instance of a `NotFound` class. */
export interface NotFoundFailure<Tag extends string> extends Cause.YieldableError {
  readonly _tag: Tag
  readonly id: string
  readonly answer: FailureAnswer
}

/** The failure of an id this caller cannot see: unknown, another organization's or the other mode's. */
export const NotFound = <const Tag extends string>(tag: Tag, what: string, scope = "this key"): {
  readonly failure: FailureSpec & { readonly tag: Tag }
  new(args: { readonly id: string }): NotFoundFailure<Tag>
} =>
  class extends ServiceFailure(tag, { kind: "not_found", codes: ["resource_missing"], description: `No ${what} with this id for ${scope}` })<
    { readonly id: string }
  > {
    get answer(): FailureAnswer {
      return { message: `No such ${what}: '${echoed(this.id)}'`, param: "id" }
    }
  }

/** A failure's answer with its defaults filled in: its first code when it says none, `param` null when it names none. */
export const failureBodyOf = (failing: Failing) => {
  const { code, concerns, message, param } = failing.answer
  return {
    code: code ?? failureClassOf(failing).failure.codes?.[0] ?? "error",
    message,
    param: param ?? null,
    concerns
  }
}

/** Whether a value is a failure (any class made with `ServiceFailure`). */
export const isFailing = (value: unknown): value is Failing =>
  typeof value === "object" && value !== null && "answer" in value && "_tag" in value &&
  typeof (value.constructor as Partial<FailureClass> | undefined)?.failure === "object"

/** The class of a failure, which declares its kind. */
export const failureClassOf = (failing: Failing): FailureClass => failing.constructor as unknown as FailureClass
