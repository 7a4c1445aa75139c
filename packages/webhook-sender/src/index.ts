/** The front door of @orchestrator/webhook-sender: everything another package may use. */
export { makeNodeWebhookSender, NodeWebhookSenderLive } from "./NodeWebhookSender.js"
