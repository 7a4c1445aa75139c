import { DEFAULT_TOLERANCE_SECONDS } from "@orchestrator/core"

/**
 * The Webhooks tag's description: how deliveries work and how to verify them, beside the catalogue
 * of event types (the document's `webhooks`).
 */
export const WEBHOOKS_DESCRIPTION = `
Register an endpoint (an https URL of yours) and every event of the types it chose is POSTed to it as JSON: the
event envelope (\`id\`, \`type\`, \`api_version\`, \`created_at\`, \`livemode\`, \`data.object\`). The catalogue of
event types, with each payload, is the **Webhooks** section of this reference. Deliveries and their attempts are
kept and can be listed, inspected and resent here.

**Signature.** Each delivery carries \`Service-Signature: t=<unix seconds>,v1=<signature>\`, where \`<signature>\` is
the hex HMAC-SHA256 of the string \`{t}.{raw body}\` keyed with the endpoint's secret (the whole \`whsec_…\` string).
While a secret is being rotated the header carries two \`v1=\`, one per secret. To verify: take the raw bytes
received, before any JSON parsing; compute the HMAC for \`t\`; compare in constant time with each \`v1\`; refuse a
\`t\` more than ${DEFAULT_TOLERANCE_SECONDS} seconds from now (replays). Answer 400 to a delivery that fails.

**The verifier.** \`@orchestrator/webhook-verify\` (\`packages/webhook-verify\`, no dependencies, Node 18+) does all
of this: \`verifyWebhook(rawBody, request.headers["service-signature"], secret)\` returns the event or throws
\`WebhookVerificationError\`; pass \`[newSecret, oldSecret]\` during a rotation, and \`toleranceSeconds\` to change the
${DEFAULT_TOLERANCE_SECONDS}-second window.

**Receiving.** Answer any 2xx within 10 seconds; anything else is retried after 1 m, 5 m, 30 m, 2 h, 6 h, 12 h, 24 h
and 24 h (±10 %), then the delivery is \`exhausted\` (the dead-letter set, which you can resend). Delivery is at
least once: deduplicate on \`Service-Event-Id\`. For one object, first attempts go out in the order the events
happened, but a retry may arrive after newer events: keep the \`created_at\` (then \`id\`) of the newest event you
applied per object and ignore older ones. See the webhooks guide at /docs/guides/webhooks.
`.trim()
