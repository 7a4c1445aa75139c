import type { ConnectorError } from "@orchestrator/core/providers/PaymentConnector"
import type { Effect } from "effect"
import type { StripeError } from "./StripeErrors.js"
import type { FormObject } from "./StripeForm.js"

/** Stripe's answer to one call: the object, or its error with the HTTP status. */
export type Answer =
  | { readonly _tag: "Ok"; readonly json: unknown }
  | { readonly _tag: "Failed"; readonly status: number; readonly error: StripeError }

/** One call to Stripe's API; POSTs carry `idempotencyKey`. */
export type StripeCall = (what: string, request: {
  readonly method: "GET" | "POST" | "DELETE"
  readonly path: string
  readonly form?: FormObject
  readonly query?: Readonly<Record<string, string>>
  readonly idempotencyKey?: string
}) => Effect.Effect<Answer, ConnectorError>
