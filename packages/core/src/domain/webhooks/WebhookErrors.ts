import { type FailureAnswer, NotFound, ServiceFailure } from "../Failure.js"

export class WebhookEndpointNotFound extends NotFound("WebhookEndpointNotFound", "webhook endpoint") {}

export class WebhookDeliveryNotFound extends NotFound("WebhookDeliveryNotFound", "webhook delivery") {}

/** A URL this endpoint's mode does not allow (live mode: https to a public host only). The seed answers it with 400. */
export class WebhookUrlNotAllowed extends ServiceFailure("WebhookUrlNotAllowed", {
  kind: "invalid",
  codes: ["url_not_allowed"],
  description: "A URL this mode does not allow: live mode takes https to public addresses only"
})<{ readonly reason: string }> {
  get answer(): FailureAnswer {
    return { message: `Invalid url: ${this.reason}.`, param: "url" }
  }
}
