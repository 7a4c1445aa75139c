import { echoed } from "@orchestrator/core/domain/EchoedText"
import type * as Domain from "@orchestrator/core/webhooks/WebhookErrors"
import { apiErrors, failWith } from "../ApiError.js"
import { CommonErrors } from "../CommonErrors.js"

const { InvalidRequest } = CommonErrors

export const WebhookErrors = apiErrors({
  WebhookEndpointNotFound: {
    status: 404,
    type: "invalid_request_error",
    codes: ["resource_missing"],
    description: "No webhook endpoint with this id for this key"
  },
  WebhookDeliveryNotFound: {
    status: 404,
    type: "invalid_request_error",
    codes: ["resource_missing"],
    description: "No webhook delivery with this id for this key"
  }
})

export const webhookFailures = {
  WebhookEndpointNotFound: (error: Domain.WebhookEndpointNotFound) =>
    failWith(WebhookErrors.WebhookEndpointNotFound, { message: `No such webhook endpoint: '${echoed(error.id)}'`, param: "id" }),
  WebhookDeliveryNotFound: (error: Domain.WebhookDeliveryNotFound) =>
    failWith(WebhookErrors.WebhookDeliveryNotFound, { message: `No such webhook delivery: '${echoed(error.id)}'`, param: "id" }),
  // The seed answers a bad endpoint with 400: a URL the mode does not allow is bad input.
  WebhookUrlNotAllowed: (error: Domain.WebhookUrlNotAllowed) =>
    failWith(InvalidRequest, { code: "url_not_allowed", message: `Invalid url: ${error.reason}.`, param: "url" })
}
