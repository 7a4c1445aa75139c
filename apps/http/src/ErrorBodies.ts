import type { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import {
  type ApiError,
  type ErrorDetails,
  errorByStatus,
  type ErrorStatus,
  type ErrorType
} from "@orchestrator/api/ApiErrors"
import type { IdempotencyKeyInUse, IdempotencyKeyReused } from "@orchestrator/core/idempotency/IdempotencyKey"
import type {
  AmountTooLarge,
  PaymentNotFound,
  PaymentRefused,
  PaymentStateConflict,
  ProviderUnreachable,
  ReturnUrlRequired
} from "@orchestrator/core/payments/PaymentErrors"
import type { NoProviderAvailable, ProviderNotUsable } from "@orchestrator/core/providers/ProviderResolution"
import type { PaymentNotRefundable, RefundNotFound, RefundRefused } from "@orchestrator/core/refunds/RefundErrors"
import type { InvalidCursor } from "@orchestrator/core/domain/Pagination"
import type { AuthenticationFailed } from "@orchestrator/core/tenancy/Authentication"
import { HttpServerResponse } from "@effect/platform"
import { Effect, FiberRef, Schema } from "effect"
import { CurrentRequestId } from "./RequestId.js"

type Details = Omit<ErrorDetails, "request_id" | "param"> & { readonly param?: string | null }

/** Builds the error of a status, with the current request's id. */
export const apiError = <S extends ErrorStatus>(
  status: S,
  details: Details
): Effect.Effect<InstanceType<(typeof errorByStatus)[S]>> =>
  Effect.map(FiberRef.get(CurrentRequestId), (requestId) =>
    new errorByStatus[status]({
      error: { ...details, param: details.param ?? null, request_id: requestId }
    }) as InstanceType<(typeof errorByStatus)[S]>)

export const failWith = (status: ErrorStatus, details: Details) => Effect.flatMap(apiError(status, details), Effect.fail)

export const statusOf = (error: ApiError): ErrorStatus =>
  (Object.keys(errorByStatus) as Array<`${ErrorStatus}`>)
    .map(Number)
    .find((status) => error instanceof errorByStatus[status as ErrorStatus]) as ErrorStatus

export const encodeError = (error: ApiError): string =>
  JSON.stringify(Schema.encodeSync(errorByStatus[statusOf(error)] as unknown as Schema.Schema<ApiError, unknown>)(error))

/** An error as the response that carries it. */
export const errorResponse = (error: ApiError) =>
  HttpServerResponse.text(encodeError(error), { status: statusOf(error), contentType: "application/json" })

const invalid = (code: string, message: string, param: string | null = null) =>
  ({ type: "invalid_request_error" as ErrorType, code, message, param })

/** Every error the core can raise to a caller, as the status and body of decisions §8. */
export type DomainError =
  | PaymentNotFound
  | RefundNotFound
  | PaymentRefused
  | RefundRefused
  | ProviderUnreachable
  | PaymentStateConflict
  | ReturnUrlRequired
  | AmountTooLarge
  | ProviderNotUsable
  | NoProviderAvailable
  | PaymentNotRefundable
  | IdempotencyKeyInUse
  | IdempotencyKeyReused
  | InvalidCursor
  | AuthenticationFailed

export const fromDomainError = (error: DomainError): Effect.Effect<ApiError> => {
  switch (error._tag) {
    case "PaymentNotFound":
      return apiError(404, invalid("resource_missing", `No such payment: '${error.id}'`, "id"))
    case "RefundNotFound":
      return apiError(404, invalid("resource_missing", `No such refund: '${error.id}'`, "id"))
    case "PaymentRefused":
      return apiError(402, { type: "payment_error", code: error.code, message: error.message, payment: error.payment })
    case "RefundRefused":
      return apiError(402, {
        type: "payment_error",
        code: error.refund.failure?.code ?? "refund_failed",
        message: error.refund.failure?.message ?? "The refund failed.",
        refund: error.refund
      })
    case "ProviderUnreachable":
      return error.timedOut
        ? apiError(504, {
          type: "provider_error",
          code: "provider_timeout",
          message: `The payment provider '${error.payment.provider}' did not answer in time. Retry with the same Idempotency-Key.`,
          payment: error.payment
        })
        : apiError(502, {
          type: "provider_error",
          code: "provider_unavailable",
          message: `The payment provider '${error.payment.provider}' could not be reached; nothing changed. Retry later.`,
          payment: error.payment
        })
    case "PaymentStateConflict":
      return apiError(409, {
        ...invalid(
          "payment_unexpected_state",
          `This payment is ${error.payment.status}; it cannot be ${error.action === "cancel" ? "canceled" : "captured"}.`
        ),
        payment: error.payment
      })
    case "ReturnUrlRequired":
      return apiError(422, {
        ...invalid(
          "return_url_required",
          "The provider requires customer authentication (3D Secure), which needs a return_url. The payment was canceled.",
          "return_url"
        ),
        payment: error.payment
      })
    case "AmountTooLarge":
      return apiError(422, invalid("amount_too_large", `The amount can be at most ${error.maximum}.`, error.param))
    case "ProviderNotUsable":
      return apiError(422, invalid("provider_not_usable", `Cannot use provider '${error.provider}': ${error.reason}.`, "provider"))
    case "NoProviderAvailable":
      return apiError(422, invalid("no_provider_available", `No provider can take this payment: ${error.reason}.`))
    case "PaymentNotRefundable":
      return apiError(409, {
        ...(error.reason === "fully_refunded"
          ? invalid("charge_already_refunded", "This payment has been refunded in full.")
          : invalid(
            "payment_unexpected_state",
            `This payment is ${error.payment.status}; only a succeeded payment can be refunded.`
          )),
        payment: error.payment
      })
    case "IdempotencyKeyInUse":
      return apiError(409, {
        type: "idempotency_error",
        code: "idempotency_key_in_use",
        message: "A request with this Idempotency-Key is still being processed. Retry in a moment.",
        param: "Idempotency-Key"
      })
    case "IdempotencyKeyReused":
      return apiError(422, {
        type: "idempotency_error",
        code: "idempotency_key_reused",
        message: "This Idempotency-Key was used for a different request. Use a new key for a new request.",
        param: "Idempotency-Key"
      })
    case "InvalidCursor":
      return apiError(400, invalid("parameter_invalid", `No object '${error.cursor}' to start after.`, "starting_after"))
    case "AuthenticationFailed":
      return authenticationError(error)
  }
}

export const authenticationError = (error: AuthenticationFailed) =>
  apiError(401, {
    type: "authentication_error",
    code: error.reason === "missing" ? "api_key_missing" : "api_key_invalid",
    message: error.reason === "missing"
      ? "No API key provided. Send 'Authorization: Bearer sk_test_…'."
      : "Invalid API key provided."
  })

/** Fails with the API error of a domain error: `Effect.catchAll(failWithDomainError)`. */
export const failWithDomainError = (error: DomainError) => Effect.flatMap(fromDomainError(error), Effect.fail)

const paramOf = (path: ReadonlyArray<PropertyKey>): string | null =>
  path.length === 0 ? null : path[0] === "idempotency-key" ? "Idempotency-Key" : path.map(String).join(".")

/** A request that does not match the schema: 400 naming the first offending parameter. */
export const fromDecodeError = (error: HttpApiDecodeError): Effect.Effect<ApiError> => {
  const issue = error.issues[0]
  const param = issue === undefined ? null : paramOf(issue.path)
  const code = issue?._tag === "Missing" ? "parameter_missing" : issue?._tag === "Unexpected" ? "parameter_unknown" : "parameter_invalid"
  const message = issue === undefined
    ? "The request is not valid."
    : code === "parameter_missing"
    ? `Missing required parameter: ${param}.`
    : code === "parameter_unknown"
    ? `Received unknown parameter: ${param}.`
    : param === null
    ? `The request body is not valid: ${issue.message}`
    : `Invalid ${param}: ${issue.message}`
  return apiError(400, invalid(code, message, param))
}
