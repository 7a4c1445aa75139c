// A merchant's shop to try the checkout drop-in with:
//   ORCHESTRATOR_API_KEY=sk_test_… node examples/checkout-shop.mjs
// then open http://localhost:4243. Its server creates a checkout session with the secret key; its
// page mounts the drop-in (loaded from the service) with the session's client secret only.
// ORCHESTRATOR_URL (default http://localhost:3000) is the service; PORT (default 4243) the shop's, on
// HOST (default 127.0.0.1: this machine only).
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"

const api = (process.env.ORCHESTRATOR_URL ?? "http://localhost:3000").replace(/\/$/, "")
const key = process.env.ORCHESTRATOR_API_KEY
if (!key) {
  console.error("Set ORCHESTRATOR_API_KEY to a test key (sk_test_…), printed when the service starts.")
  process.exit(2)
}
const port = Number(process.env.PORT ?? 4243)
const host = process.env.HOST ?? "127.0.0.1"
/** The client secrets of the sessions this shop made, to mount the drop-in again after 3D Secure. */
const secrets = new Map()

const escape = (text) => String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
const page = (title, body) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title>
<link rel="stylesheet" href="/shop.css"></head><body><header>Example shop</header><main>${body}</main></body></html>`

const call = async (method, path, body) => {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      ...(method === "POST" ? { "idempotency-key": randomUUID() } : {})
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, json: await response.json() }
}

const send = (response, status, contentType, body, headers = {}) => response.writeHead(status, { "content-type": contentType, ...headers }).end(body)

const routes = {
  "GET /": async (_request, response) =>
    send(
      response,
      200,
      "text/html; charset=utf-8",
      page(
        "Example shop",
        `<h1>Orchestrator T-shirt</h1>
<p>A very comfortable T-shirt. <strong>€25.00</strong></p>
<form method="post" action="/checkout"><button type="submit">Buy now</button></form>`
      )
    ),

  // The merchant's server: one session per purchase, made with the secret key.
  "POST /checkout": async (request, response, origin) => {
    const created = await call("POST", "/v1/checkout/sessions", {
      amount: 2500,
      currency: "EUR",
      success_url: `${origin}/thanks?session={CHECKOUT_SESSION_ID}`,
      cancel_url: `${origin}/`,
      return_url: `${origin}/pay?session={CHECKOUT_SESSION_ID}`,
      metadata: { order: randomUUID() }
    })
    if (created.status !== 201) return send(response, 502, "text/plain", `Could not start the checkout: ${created.json.error?.message}`)
    secrets.set(created.json.id, created.json.client_secret)
    send(response, 303, "text/plain", "", { location: `/pay?session=${created.json.id}` })
  },

  // The payment page: the drop-in, mounted with the client secret (the secret key never leaves the server).
  "GET /pay": async (_request, response, _origin, query) => {
    const secret = secrets.get(query.get("session"))
    if (!secret) return send(response, 404, "text/plain", "Unknown checkout")
    send(
      response,
      200,
      "text/html; charset=utf-8",
      page(
        "Pay",
        `<h1>Pay for your T-shirt</h1>
<div id="checkout" data-client-secret="${escape(secret)}"></div>
<script src="${escape(api)}/v1/checkout/dropin.js"></script><script src="/shop.js"></script>`
      )
    )
  },

  "GET /thanks": async (_request, response, _origin, query) => {
    const session = await call("GET", `/v1/checkout/sessions/${encodeURIComponent(query.get("session") ?? "")}?expand=payment`)
    const paid = session.status === 200 && session.json.status === "complete"
    send(
      response,
      200,
      "text/html; charset=utf-8",
      page(
        "Thank you",
        paid
          ? `<h1>Thank you!</h1><p id="outcome">Session ${escape(session.json.id)} is ${escape(session.json.status)}: payment ${
            escape(session.json.payment.id)
          } ${escape(session.json.payment.status)} on ${escape(session.json.payment.provider)}.</p>`
          : `<h1>Not paid</h1><p id="outcome">This checkout is not complete.</p>`
      )
    )
  },

  "GET /shop.js": async (_request, response) =>
    send(
      response,
      200,
      "text/javascript",
      `const container = document.getElementById("checkout")
Orchestrator.mount({
  clientSecret: container.dataset.clientSecret,
  container,
  locale: navigator.language,
  onComplete: (session) => console.log("paid", session.id),
  onError: (error) => console.error(error)
})`
    ),

  "GET /shop.css": async (_request, response) =>
    send(
      response,
      200,
      "text/css",
      `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#fafafa}
header{background:#1a1a2e;color:#fff;padding:.8rem 1.5rem;font-weight:600}main{max-width:34rem;margin:2rem auto;padding:0 1rem}
button{font:inherit;padding:.6rem 1.2rem;border-radius:8px;border:0;background:#3b5bdb;color:#fff;cursor:pointer}`
    )
}

createServer((request, response) => {
  const url = new URL(request.url, `http://${request.headers.host}`)
  const route = routes[`${request.method} ${url.pathname}`]
  if (route === undefined) return send(response, 404, "text/plain", "Not found")
  route(request, response, url.origin, url.searchParams).catch((error) => {
    console.error(error)
    send(response, 500, "text/plain", "The shop broke")
  })
}).listen(port, host, () => console.log(`Example shop on http://localhost:${port} (checkout through ${api})`))
