import { API_VERSION } from "@orchestrator/core"

/** Where the guides are served, beside this reference. */
export const guide = (name: string, title: string) => `[${title}](/docs/guides/${name})`

/** The document's `info.description`: what a merchant's engineer reads first. */
export const INTRODUCTION = `
Create and process payments, refunds and subscriptions through the payment service providers (PSPs)
you connect, take payments in a hosted checkout, choose the PSP with routing rules, and learn what
happened through signed webhooks. A built-in **sandbox PSP** lets you try every flow (success, decline,
3D Secure, manual capture, refunds, outages) without an account anywhere.
New here? Start with the ${guide("quick-start", "quick start")}: a first payment in five minutes.

## Authentication

Every call under \`/v1\` sends a secret API key: \`Authorization: Bearer sk_test_…\`. A \`sk_test_…\` key sees
test data only, a \`sk_live_…\` key live data only. The development start (\`pnpm start\`) prints a test key
("Development API key (test mode)") the first time it runs; an operator creates keys with
\`bin/orchestrator keys create --org org_… [--live]\` and revokes them with \`bin/orchestrator keys revoke key_…\`.
A key is shown once. Paste your test key in **Authentication** (Bearer Token) on this page, then **Test Request** sends a call with it; the key stays in the page.
A checkout session's browser endpoints also accept that session's \`client_secret\`
(header \`Service-Client-Secret\` or query \`client_secret\`), which opens that one session only.
By default each key may send 25 requests a second in test mode and 100 in live mode; past that, 429 with \`Retry-After\`.

## Amounts

Amounts are integers in the **minor unit** of the currency: \`1050\` is 10.50 EUR, \`1050\` is 1050 JPY,
\`1050\` is 1.050 KWD. From 1 to 99 999 999; a float is refused. Currencies are ISO 4217 codes in upper case.

## Idempotency

Send an \`Idempotency-Key\` header (1 to 255 printable characters, e.g. a UUID or your order id) with every
\`POST\` and \`PATCH\`; it is required when creating a payment, a refund, a subscription or a checkout session.
A retry with the same key and body replays the first answer with \`Idempotent-Replayed: true\` and never
charges twice; the same key with another body answers 422 \`idempotency_key_reused\`, and while the first
request is still running, 409 \`idempotency_key_in_use\`. Keys are kept 24 hours.
The examples on this page use keys that start with \`example-\` (no guide uses one), and **Test Request**
sends each of them under a fresh key, so an example never collides with a key you sent before; a key
you type yourself is sent as it is. See ${guide("idempotency", "idempotency and retries")}.

## Errors

Every failure has the body \`{"error": {"type", "code", "message", "param", "request_id"}}\`, plus the
\`payment\`, \`refund\` or \`subscription\` concerned when there is one. \`type\` is the family
(\`invalid_request_error\`, \`authentication_error\`, \`idempotency_error\`, \`payment_error\`,
\`rate_limit_error\`, \`provider_error\`, \`api_error\`), \`code\` the precise reason, \`param\` the field at fault.
Each operation lists the statuses and codes it can answer. A decline answers 402 with the failed payment
inside. Every response carries a \`Request-Id\`; quote it when you ask for help. See ${guide("errors", "errors")}.

## Lists and pagination

Lists are newest first: \`{"object": "list", "data": […], "has_more": true, "next_cursor": "pay_…"}\`.
Ask for the next page with \`starting_after=<next_cursor>\`; \`limit\` is 1 to 100 (default 20).

## Webhooks

Each change of a payment, refund, subscription, invoice, checkout session or provider connection is an
event, kept 30 days (\`GET /v1/events\`) and POSTed, signed, to the webhook endpoints you register.
The **Webhooks** section of this reference lists every event type with its payload; the **Webhooks** tag
describes the signature and how to verify it. See ${guide("webhooks", "webhooks")}.

## Versioning

The path carries the major version (\`/v1\`). Every response and every event carries the API version,
a date: \`${API_VERSION}\` (header \`Service-Version\`, field \`api_version\`). A request may pin it with
\`Service-Version\`; an unknown value answers 400.

## Guides

${guide("quick-start", "Quick start")} · ${guide("idempotency", "Idempotency and retries")} ·
${guide("3d-secure", "3D Secure")} · ${guide("webhooks", "Webhooks")} · ${guide("routing", "Routing and failover")} ·
${guide("subscriptions", "Subscriptions and test clocks")} · ${guide("checkout", "Checkout and the drop-in")} ·
${guide("going-live", "Going live")} · ${guide("errors", "Errors")}
`.trim()
