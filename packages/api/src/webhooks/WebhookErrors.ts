import type * as Domain from "@orchestrator/core"
import { apiErrors, failWith, noSuch, notFound } from "../ApiError.js"
import { InvalidRequest } from "../CommonErrors.js"

export const WebhookErrors = apiErrors({
  WebhookEndpointNotFound: notFound("webhook endpoint"),
  WebhookDeliveryNotFound: notFound("webhook delivery")
})

/** Each class by its name, for endpoint declarations and `failWith`. */
export const { WebhookEndpointNotFound, WebhookDeliveryNotFound } = WebhookErrors

export const webhookFailures = {
  WebhookEndpointNotFound: noSuch(WebhookEndpointNotFound, "webhook endpoint"),
  WebhookDeliveryNotFound: noSuch(WebhookDeliveryNotFound, "webhook delivery"),
  // The seed answers a bad endpoint with 400: a URL the mode does not allow is bad input.
  WebhookUrlNotAllowed: (error: Domain.WebhookUrlNotAllowed) =>
    failWith(InvalidRequest, { code: "url_not_allowed", message: `Invalid url: ${error.reason}.`, param: "url" })
}
