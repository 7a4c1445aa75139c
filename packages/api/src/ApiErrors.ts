import { type HttpApiEndpoint, HttpApiSchema, type HttpMethod } from "@effect/platform"
import { Payment } from "@orchestrator/core/payments/Payment"
import { Refund } from "@orchestrator/core/refunds/Refund"
import { Schema } from "effect"

export const ErrorType = Schema.Literal(
  "invalid_request_error",
  "authentication_error",
  "idempotency_error",
  "payment_error",
  "rate_limit_error",
  "provider_error",
  "api_error"
)
export type ErrorType = typeof ErrorType.Type

/** The body of every failure (decisions §8). `payment`/`refund` carry the object a failure produced. */
export const ErrorDetails = Schema.Struct({
  type: ErrorType,
  code: Schema.String,
  message: Schema.String,
  param: Schema.NullOr(Schema.String),
  request_id: Schema.String,
  payment: Schema.optional(Payment),
  refund: Schema.optional(Refund)
}).annotations({ identifier: "ErrorDetails" })
export type ErrorDetails = typeof ErrorDetails.Type

/**
 * One class per status, all with the wire shape `{"error": {...}}`. Each class's `_tag` field tells
 * them apart in clients (`catchTag`); it is not a schema field, so it never reaches the body.
 */
const errorClass = <Self>() => <const Tag extends string>(tag: Tag, status: number, description: string) =>
  Schema.Class<Self>(tag)(
    { error: ErrorDetails },
    HttpApiSchema.annotations({ status, description, identifier: tag })
  )

export class InvalidRequest extends errorClass<InvalidRequest>()(
  "InvalidRequest",
  400,
  "Malformed JSON, a wrong type, a missing or unknown field, or a missing Idempotency-Key"
) {
  readonly _tag = "InvalidRequest" as const
}
export class AuthenticationRequired extends errorClass<AuthenticationRequired>()(
  "AuthenticationRequired",
  401,
  "Missing, malformed, unknown or revoked API key"
) {
  readonly _tag = "AuthenticationRequired" as const
}
export class PaymentFailed extends errorClass<PaymentFailed>()(
  "PaymentFailed",
  402,
  "The provider refused the money movement; the failed payment or refund is inside"
) {
  readonly _tag = "PaymentFailed" as const
}
export class NotFound extends errorClass<NotFound>()("NotFound", 404, "No such object for this key") {
  readonly _tag = "NotFound" as const
}
export class Conflict extends errorClass<Conflict>()(
  "Conflict",
  409,
  "The object is not in a status that allows this, or the Idempotency-Key is in use by a running request"
) {
  readonly _tag = "Conflict" as const
}
export class PayloadTooLarge extends errorClass<PayloadTooLarge>()("PayloadTooLarge", 413, "The body is over 1 MiB") {
  readonly _tag = "PayloadTooLarge" as const
}
export class Unprocessable extends errorClass<Unprocessable>()(
  "Unprocessable",
  422,
  "Well-formed but not possible (amount too large, unusable provider), or an Idempotency-Key reused with another body"
) {
  readonly _tag = "Unprocessable" as const
}
export class InternalError extends errorClass<InternalError>()("InternalError", 500, "A bug on our side; it is logged") {
  readonly _tag = "InternalError" as const
}
export class ProviderUnavailable extends errorClass<ProviderUnavailable>()(
  "ProviderUnavailable",
  502,
  "The payment provider could not be reached; nothing was charged"
) {
  readonly _tag = "ProviderUnavailable" as const
}
export class ProviderTimeout extends errorClass<ProviderTimeout>()(
  "ProviderTimeout",
  504,
  "The payment provider did not answer in time; retry with the same Idempotency-Key"
) {
  readonly _tag = "ProviderTimeout" as const
}

/** Every error class by HTTP status, for the shell that renders them. */
export const errorByStatus = {
  400: InvalidRequest,
  401: AuthenticationRequired,
  402: PaymentFailed,
  404: NotFound,
  409: Conflict,
  413: PayloadTooLarge,
  422: Unprocessable,
  500: InternalError,
  502: ProviderUnavailable,
  504: ProviderTimeout
} as const
export type ErrorStatus = keyof typeof errorByStatus
export type ApiError = InstanceType<(typeof errorByStatus)[ErrorStatus]>

/**
 * What a call that moves money can answer besides success: bad input, a refusal by the PSP, a conflict
 * (status, or the key in use), something impossible (or the key reused), or a PSP that could not be reached.
 */
export const withMoneyMovementErrors = <
  Name extends string,
  Method extends HttpMethod.HttpMethod,
  Path,
  UrlParams,
  Payload,
  Headers,
  Success,
  Error,
  R,
  RE
>(endpoint: HttpApiEndpoint.HttpApiEndpoint<Name, Method, Path, UrlParams, Payload, Headers, Success, Error, R, RE>) =>
  endpoint
    .addError(InvalidRequest)
    .addError(PaymentFailed)
    .addError(Conflict)
    .addError(Unprocessable)
    .addError(ProviderUnavailable)
    .addError(ProviderTimeout)
