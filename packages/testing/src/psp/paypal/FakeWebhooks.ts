import { createHmac, randomUUID } from "node:crypto"
import { paypalError } from "./FakeOrders.js"

export interface WebhookDelivery {
  readonly headers: Record<string, string>
  readonly body: string
}

const SIGNING_KEY = "fake-paypal-signing-key"

/**
 * The fake's webhook deliveries and PayPal's verify-webhook-signature over them: a delivery is
 * genuine when this fake made it, for that webhook id, and the event comes back unchanged.
 */
export const makeFakeWebhooks = (baseUrl: () => string) => {
  const deliveries = new Map<string, { webhookId: string; time: string; sig: string; body: string }>()

  const webhook = (webhookId: string, eventType: string, resource: unknown): WebhookDelivery => {
    const id = randomUUID()
    const time = new Date().toISOString()
    const body = JSON.stringify({
      id: `WH-${id.slice(0, 8).toUpperCase()}`,
      create_time: time,
      resource_type: eventType.startsWith("CHECKOUT")
        ? "checkout-order"
        : eventType.startsWith("CUSTOMER.DISPUTE")
        ? "dispute"
        : eventType.includes("REFUND")
        ? "refund"
        : "capture",
      event_type: eventType,
      summary: eventType,
      resource,
      event_version: "1.0",
      resource_version: "2.0"
    })
    // Hex, not base64: the document's pattern for `transmission_sig` wants a word character first, which base64 breaks one time in 32.
    const sig = createHmac("sha256", SIGNING_KEY).update(`${id}|${time}|${webhookId}|${body}`).digest("hex")
    deliveries.set(id, { webhookId, time, sig, body })
    return {
      body,
      headers: {
        "content-type": "application/json",
        "paypal-transmission-id": id,
        "paypal-transmission-time": time,
        "paypal-transmission-sig": sig,
        "paypal-cert-url": `${baseUrl()}/fake/certs/CERT-360caa42-fca2a594-1d93a270`,
        "paypal-auth-algo": "SHA256withRSA"
      }
    }
  }

  const verify = (body: any): [number, unknown] => {
    const required = ["auth_algo", "cert_url", "transmission_id", "transmission_sig", "transmission_time", "webhook_id", "webhook_event"]
    const missing = required.find((field) => body?.[field] === undefined)
    if (missing !== undefined) return paypalError(400, "MISSING_REQUIRED_PARAMETER", missing)
    const delivered = deliveries.get(body.transmission_id)
    const genuine = delivered !== undefined && delivered.sig === body.transmission_sig && delivered.webhookId === body.webhook_id &&
      delivered.time === body.transmission_time && JSON.stringify(JSON.parse(delivered.body)) === JSON.stringify(body.webhook_event)
    return [200, { verification_status: genuine ? "SUCCESS" : "FAILURE" }]
  }

  return { webhook, verify }
}
