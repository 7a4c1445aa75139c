import type * as Domain from "@orchestrator/core/providers/ProviderResolution"
import { ApiError, failWith } from "../ApiError.js"

export class ProviderNotUsable extends ApiError<ProviderNotUsable>()("ProviderNotUsable", {
  status: 422,
  type: "invalid_request_error",
  codes: ["provider_not_usable"],
  description: "The provider asked for is unknown, not active, or cannot take this currency or method"
}) {
  readonly _tag = "ProviderNotUsable" as const
}

export class NoProviderAvailable extends ApiError<NoProviderAvailable>()("NoProviderAvailable", {
  status: 422,
  type: "invalid_request_error",
  codes: ["no_provider_available"],
  description: "No provider of the organization can take this payment"
}) {
  readonly _tag = "NoProviderAvailable" as const
}

export const providerFailures = {
  ProviderNotUsable: (error: Domain.ProviderNotUsable) =>
    failWith(ProviderNotUsable, { message: `Cannot use provider '${error.provider}': ${error.reason}.`, param: "provider" }),
  NoProviderAvailable: (error: Domain.NoProviderAvailable) =>
    failWith(NoProviderAvailable, { message: `No provider can take this payment: ${error.reason}.` })
}
