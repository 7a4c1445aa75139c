// A webhook receiver to try the service with: `WEBHOOK_SECRET=whsec_… node examples/webhook-receiver.mjs`
// Listens on PORT (default 4242) of HOST (default 127.0.0.1: this machine only), verifies every delivery on its raw bytes, skips events it has
// already seen (the same event can arrive twice) and answers 200 at once.
import { createServer } from "node:http"
import { EVENT_ID_HEADER, SIGNATURE_HEADER, verifyWebhook, WebhookVerificationError } from "../packages/webhook-verify/index.js"

const secret = process.env.WEBHOOK_SECRET
if (!secret) {
  console.error("Set WEBHOOK_SECRET to the endpoint's secret (whsec_…), shown when the endpoint was created.")
  process.exit(2)
}
const port = Number(process.env.PORT ?? 4242)
const host = process.env.HOST ?? "127.0.0.1"
const seen = new Set()

createServer((request, response) => {
  const chunks = []
  request.on("data", (chunk) => chunks.push(chunk))
  request.on("end", () => {
    try {
      const event = verifyWebhook(Buffer.concat(chunks), request.headers[SIGNATURE_HEADER], secret)
      const id = request.headers[EVENT_ID_HEADER]
      const again = seen.has(id)
      seen.add(id)
      // Printed once the answer has left: what this prints, the service has been told.
      response.writeHead(200).end(() =>
        console.log(again ? `${id} again: already handled, skipped` : `${event.type} ${event.data.object.id} (${event.data.object.status ?? ""}) ${id}`)
      )
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error
      console.log(`refused: ${error.reason}`)
      response.writeHead(400).end(error.reason)
    }
  })
}).listen(port, host, () => console.log(`Receiving webhooks on http://localhost:${port}/hooks`))
