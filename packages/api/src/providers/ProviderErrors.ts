import { echoed } from "@orchestrator/core/domain/EchoedText"
import type * as Connections from "@orchestrator/core/providers/ProviderConnectionErrors"
import type * as Domain from "@orchestrator/core/providers/ProviderResolution"
import type * as Webhooks from "@orchestrator/core/providers/ProviderWebhooks"
import type * as Intake from "@orchestrator/core/providers/WebhookIntake"
import { Effect } from "effect"
import { apiErrors, failWith, noSuch, notFound } from "../ApiError.js"
import { RateLimitExceeded, retryAfterSeconds } from "../CommonErrors.js"

export const ProviderErrors = apiErrors({
  ProviderNotUsable: {
    status: 422,
    type: "invalid_request_error",
    codes: ["provider_not_usable"],
    description: "The provider asked for is unknown, not active, or cannot take this currency or method"
  },
  NoProviderAvailable: {
    status: 422,
    type: "invalid_request_error",
    codes: ["no_provider_available"],
    description: "No provider of the organization can take this payment"
  },
  ProviderConnectionNotFound: notFound("provider connection"),
  ConnectionNameTaken: {
    status: 409,
    type: "invalid_request_error",
    codes: ["connection_name_taken"],
    description: "Another connection of this mode has this name (deleted connections keep theirs)"
  },
  DefaultProviderInUse: {
    status: 409,
    type: "invalid_request_error",
    codes: ["default_provider_in_use"],
    description: "The default provider cannot be deleted or disabled; choose another default first"
  },
  ConnectionInvalid: {
    status: 422,
    type: "invalid_request_error",
    codes: ["connection_invalid"],
    description: "An unknown connection type, or settings or credentials this type does not take"
  },
  WebhookUnverified: {
    status: 400,
    type: "invalid_request_error",
    codes: ["webhook_unverified"],
    description: "The webhook is not provably from the connection's PSP (signature, timestamp, content); nothing was stored"
  }
})

/** Each class by its name, for endpoint declarations and `failWith`. */
export const {
  ProviderNotUsable,
  NoProviderAvailable,
  ProviderConnectionNotFound,
  ConnectionNameTaken,
  DefaultProviderInUse,
  ConnectionInvalid,
  WebhookUnverified
} = ProviderErrors

export const providerFailures = {
  ProviderNotUsable: (error: Domain.ProviderNotUsable) =>
    failWith(ProviderNotUsable, { message: `Cannot use provider '${echoed(error.provider)}': ${error.reason}.`, param: "provider" }),
  NoProviderAvailable: (error: Domain.NoProviderAvailable) => failWith(NoProviderAvailable, { message: `No provider can take this payment: ${error.reason}.` })
}

export const connectionFailures = {
  ProviderConnectionNotFound: noSuch(ProviderConnectionNotFound, "provider connection"),
  ConnectionNameTaken: (error: Connections.ConnectionNameTaken) =>
    failWith(ConnectionNameTaken, { message: `A connection named '${echoed(error.name)}' exists already.`, param: "name" }),
  DefaultProviderInUse: (error: Connections.DefaultProviderInUse) =>
    failWith(DefaultProviderInUse, {
      message: `'${echoed(error.name)}' is the default provider; choose another default (PATCH /v1/organization) first.`
    }),
  ConnectionInvalid: (error: Connections.ConnectionInvalid) =>
    failWith(ConnectionInvalid, { message: `Invalid ${error.param}: ${error.reason}.`, param: error.param })
}

export const providerWebhookFailures = {
  ProviderWebhookRejected: (error: Webhooks.ProviderWebhookRejected) =>
    failWith(WebhookUnverified, { message: `The webhook was not accepted: ${error.reason}.`, param: error.field ?? null }),
  ProviderWebhookThrottled: (error: Intake.ProviderWebhookThrottled) =>
    failWith(RateLimitExceeded, {
      message: "Too many webhooks for this connection at once; nothing was read. Retry after the time in Retry-After."
    }).pipe(Effect.tapError((refused) => Effect.sync(() => retryAfterSeconds.set(refused, Math.max(1, Math.ceil(error.retryAfterMs / 1000))))))
}
