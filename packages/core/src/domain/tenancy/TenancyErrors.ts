import { echoed } from "../EchoedText.js"
import { type FailureAnswer, NotFound, ServiceFailure } from "../Failure.js"

/**
 * Missing, malformed, unknown or revoked key. One error for all, so a caller learns nothing more;
 * except a publishable key where a secret one is needed, which is told so (as Stripe does): such a
 * key is public anyway, and the mistake is the developer's to fix.
 */
export class AuthenticationFailed extends ServiceFailure("AuthenticationFailed", {
  kind: "unauthenticated",
  codes: ["api_key_missing", "api_key_invalid"],
  description: "Missing, malformed, unknown or revoked API key"
})<{
  readonly reason: "missing" | "malformed" | "unknown" | "publishable"
}> {
  get answer(): FailureAnswer {
    switch (this.reason) {
      case "missing":
        return { code: "api_key_missing", message: "No API key provided. Send 'Authorization: Bearer sk_test_…'." }
      case "publishable":
        return {
          code: "api_key_invalid",
          message: "This request needs a secret key (sk_…): a publishable key (pk_…) can only create payment methods from the card form."
        }
      default:
        return { code: "api_key_invalid", message: "Invalid API key provided." }
    }
  }
}

export class OrganizationNotFound extends NotFound("OrganizationNotFound", "organization") {}

export class ApiKeyNotFound extends NotFound("ApiKeyNotFound", "API key") {}

/** A key to import that is not a secret key (`sk_test_…`, `sk_live_…`). */
export class InvalidApiKey extends ServiceFailure("InvalidApiKey", {
  kind: "invalid",
  codes: ["api_key_invalid"],
  description: "Not a secret API key"
})<{ readonly reason: string }> {
  get answer(): FailureAnswer {
    return { message: `Invalid API key: ${this.reason}.` }
  }
}

/** The default provider asked for is not an active connection of this mode. */
export class DefaultProviderInvalid extends ServiceFailure("DefaultProviderInvalid", {
  kind: "unprocessable",
  codes: ["default_provider_invalid"],
  description: "The default provider must be a connection of this mode that is not disabled"
})<{
  readonly provider: string
  readonly reason: string
}> {
  get answer(): FailureAnswer {
    return { message: `Cannot make '${echoed(this.provider)}' the default: ${this.reason}.`, param: "default_provider" }
  }
}
