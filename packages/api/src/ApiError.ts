import { HttpApiSchema } from "@effect/platform"
import {
  Dispute,
  type Failing,
  type FailureAnswer,
  failureBodyOf,
  type FailureClass,
  failureClassOf,
  field,
  optionalField,
  Payment,
  Refund,
  Subscription,
  type TagOf
} from "@orchestrator/core"
import { Effect, FiberRef, Schema } from "effect"
import { type ErrorType, FAILURE_KINDS } from "./FailureKinds.js"

export { ErrorType } from "./FailureKinds.js"

/** Seconds until a refused request may try again, by the error that refused it: the `Retry-After` header. */
export const retryAfterSeconds = new WeakMap<object, number>()

/** The `req_…` id of the request being served; every response and error body carries it. */
export const CurrentRequestId = FiberRef.unsafeMake("req_unknown")

/** What a failure tells the client, besides its type and the request id. */
export interface FailureDetails {
  readonly message: string
  readonly code?: string
  readonly param?: string | null
  readonly payment?: Payment
  readonly refund?: Refund
  readonly subscription?: Subscription
  readonly dispute?: Dispute
}

/** The body of every failure: `{"error": {type, code, message, param, request_id, payment?, refund?, …}}`. */
const detailsOf = (type: ErrorType, codes: ReadonlyArray<string> | undefined) =>
  Schema.Struct({
    type: field(Schema.Literal(type), "The family of the error; each status has one."),
    // A fixed code lets a client tell apart two failures that share a status.
    code: field(
      codes === undefined ? Schema.String : Schema.Literal(...(codes as [string, ...Array<string>])),
      "The precise reason, stable across versions: branch on this, not on `message`."
    ),
    message: field(Schema.String, "What went wrong, in English, for a developer (not meant for customers)."),
    param: field(Schema.NullOr(Schema.String), "The request field or parameter at fault (`amount`, `payment_method.token`), or `null`."),
    request_id: field(Schema.String, "The request's id (`req_…`), also in the `Request-Id` header: quote it when asking for help."),
    payment: optionalField(Payment, "The payment concerned, as it now is (a decline's failed payment, for example)."),
    refund: optionalField(Refund, "The refund concerned, as it now is (a refused refund, for example)."),
    subscription: optionalField(Subscription, "The subscription concerned (a first charge that was declined, for example)."),
    dispute: optionalField(Dispute, "The dispute concerned, as it now is (a closed one, or one whose evidence the provider refused).")
  })

export interface ApiErrorShape {
  readonly _tag: string
  readonly error: {
    readonly type: ErrorType
    readonly code: string
    readonly message: string
    readonly param: string | null
    readonly request_id: string
    readonly payment?: Payment | undefined
    readonly refund?: Refund | undefined
    readonly subscription?: Subscription | undefined
    readonly dispute?: Dispute | undefined
  }
}

/** What the HTTP contract says of one failure: status, `type`, fixed codes and the OpenAPI description. */
export interface ApiErrorSpec {
  readonly status: number
  readonly type: ErrorType
  readonly codes?: ReadonlyArray<string>
  readonly description: string
}
type Spec = ApiErrorSpec

/** The spec of every error class made by `ApiError`, by the class it returned. */
const specs = new Map<unknown, Spec>()

const specOf = (value: unknown): Spec | undefined => {
  if (typeof value !== "object" || value === null) return undefined
  const constructor = (value as { constructor?: unknown }).constructor
  return specs.get(constructor) ?? (constructor === undefined ? undefined : specs.get(Object.getPrototypeOf(constructor)))
}

/** Any error made by `ApiError`: the edge renders each with its own class and status. */
export const isApiError = (value: unknown): value is ApiErrorShape => specOf(value) !== undefined

export const statusOf = (error: ApiErrorShape): number => specOf(error)!.status

/**
 * The error class of one failure: its status, its `type`, its code (fixed when it has one) and a
 * description for the OpenAPI document. Subclasses add `readonly _tag = "Name" as const`, which
 * tells failures apart in clients; it is not a schema field and never reaches the body.
 */
export const ApiError = <Self>() => <const Tag extends string>(tag: Tag, spec: Spec) => {
  const errorClass = Schema.Class<Self>(tag)(
    { error: field(detailsOf(spec.type, spec.codes), "What failed and why.") },
    HttpApiSchema.annotations({ status: spec.status, description: spec.description, identifier: tag })
  )
  specs.set(errorClass, spec)
  return errorClass
}

/** An error made by `apiErrors`: `_tag` names its class in clients; it never reaches the body. */
export interface ApiFailure<Tag extends string> extends ApiErrorShape {
  readonly _tag: Tag
}

/** The class of one failure: its schema (for HttpApi and OpenAPI) and its constructor (for `failWith`). */
export interface ApiErrorClass<Tag extends string> extends Schema.Schema<ApiFailure<Tag>, { readonly error: unknown }> {
  new(props: { readonly error: ApiErrorShape["error"] }): ApiFailure<Tag>
}

/**
 * The error classes of a feature, one per entry of its table, each named by its key: the table is
 * the one place a failure's status, type, codes and description are written.
 */
export const apiErrors = <const Table extends { readonly [tag: string]: Spec }>(
  table: Table
): { readonly [Tag in keyof Table & string]: ApiErrorClass<Tag> } =>
  Object.fromEntries(
    Object.entries(table).map(([tag, spec]) => {
      const base = ApiError<unknown>()(tag, spec)
      const errorClass = class extends base {
        readonly _tag = tag
      }
      // The class's own name, as a hand-written class would have, for logs and stack traces.
      Object.defineProperty(errorClass, "name", { value: tag })
      specs.set(errorClass, spec)
      return [tag, errorClass]
    })
  ) as never

/** An API error's class: each declares its own body, so the body's type is any of theirs. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
type ErrorClassOf<E> = new(props: { readonly error: any }) => E

/** Fails with an error of `errorClass`, stamped with the current request's id. */
export const failWith = <E>(
  errorClass: ErrorClassOf<E>,
  details: FailureDetails
): Effect.Effect<never, E> =>
  Effect.flatMap(FiberRef.get(CurrentRequestId), (requestId) => {
    const spec = specs.get(errorClass) ?? specs.get(Object.getPrototypeOf(errorClass))!
    return Effect.fail(
      new errorClass({
        error: {
          type: spec.type,
          code: details.code ?? spec.codes?.[0] ?? "error",
          message: details.message,
          param: details.param ?? null,
          request_id: requestId,
          ...(details.payment === undefined ? {} : { payment: details.payment }),
          ...(details.refund === undefined ? {} : { refund: details.refund }),
          ...(details.subscription === undefined ? {} : { subscription: details.subscription }),
          ...(details.dispute === undefined ? {} : { dispute: details.dispute })
        }
      })
    )
  })

/** The JSON body of an API error, encoded by its own class. */
export const encodeApiError = (error: ApiErrorShape): string =>
  JSON.stringify(Schema.encodeSync(error.constructor as unknown as Schema.Schema<ApiErrorShape, unknown>)(error))

/** The API error class of each core failure class, made once. */
const derived = new Map<FailureClass, ApiErrorClass<string>>()

/**
 * The API error class of a core failure class: its status and `type` from the failure's kind
 * (`FAILURE_KINDS`), its codes and description as the core declares them, and its name, the same
 * as the core's. Endpoints declare their failures with it: `.addError(apiErrorOf(PaymentNotFound))`.
 */
export const apiErrorOf = <C extends FailureClass>(failureClass: C): ApiErrorClass<TagOf<C>> => {
  const known = derived.get(failureClass)
  if (known !== undefined) return known as ApiErrorClass<TagOf<C>>
  const { codes, description, kind, tag } = failureClass.failure
  const made = apiErrors({ [tag]: { ...FAILURE_KINDS[kind], description, ...(codes === undefined ? {} : { codes }) } })[tag]!
  derived.set(failureClass, made)
  return made as ApiErrorClass<TagOf<C>>
}

/** The objects a failure may show inside its error body, by their `object`. */
const concernsOf = (concerns: FailureAnswer["concerns"]): Partial<Pick<FailureDetails, "payment" | "refund" | "subscription" | "dispute">> => {
  switch (concerns?.object) {
    case "payment":
      return { payment: concerns as Payment }
    case "refund":
      return { refund: concerns as Refund }
    case "subscription":
      return { subscription: concerns as Subscription }
    case "dispute":
      return { dispute: concerns as Dispute }
    default:
      return {}
  }
}

/** Fails with the API error of a core failure, which says its own message, code and field. */
export const failAs = <F extends Failing>(failing: F): Effect.Effect<never, ApiFailure<F["_tag"]>> => {
  const { code, concerns, message, param } = failureBodyOf(failing)
  const { retryAfterMs } = failing.answer
  return failWith(apiErrorOf(failureClassOf(failing)), { message, code, param, ...concernsOf(concerns) }).pipe(
    Effect.tapError((refusal) =>
      Effect.sync(() => {
        if (retryAfterMs !== undefined) retryAfterSeconds.set(refusal, Math.max(1, Math.ceil(retryAfterMs / 1000)))
      })
    )
  ) as Effect.Effect<never, ApiFailure<F["_tag"]>>
}

/**
 * An operation of the core, answering over HTTP: each of its failures becomes its API error. The
 * endpoint must declare every one (`apiErrorOf`), or the handler does not compile.
 */
export const answering = <A, E extends Failing, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, ApiFailure<E["_tag"]>, R> =>
  Effect.catchAll(effect, failAs)
