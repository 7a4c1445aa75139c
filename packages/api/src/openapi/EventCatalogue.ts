import { Event } from "@orchestrator/core"
import { JSONSchema, Schema } from "effect"
import { EVENT_TYPE_DESCRIPTIONS } from "../events/EventTypeDescriptions.js"
import type { Json } from "./DocumentJson.js"

/** The headers of every delivery, besides `Content-Type: application/json`. */
const DELIVERY_HEADERS = [
  {
    // The core's SIGNATURE_HEADER, as HTTP spells it.
    name: "Service-Signature",
    description: "`t=<unix seconds>,v1=<hex HMAC-SHA256 of \"{t}.{raw body}\" keyed with the endpoint's secret>`; " +
      "two `v1=` while a secret is being rotated. Verify it on the raw bytes before parsing (see the Webhooks section)."
  },
  { name: "Service-Event-Id", description: "The event's `id` (`evt_…`): deduplicate on it, since an event can be delivered more than once." },
  { name: "Service-Delivery-Id", description: "The delivery's id (`whev_…`), as `GET /v1/webhooks/deliveries/{id}` shows it with its attempts." }
]

/** Every event type with the envelope its `data.object` comes in, read from the core's `Event` union. */
const eventSchemas = (): Array<readonly [string, Schema.Schema.Any]> =>
  Event.members.flatMap((member) =>
    member.fields.type.literals.map((type) =>
      [
        type as string,
        Schema.Struct({ ...member.fields, type: Schema.Literal(type).annotations({ description: `Always \`${type}\`.` }) })
      ] as const
    )
  )

const webhookOf = (spec: Json, type: string, schema: Schema.Schema.Any) => ({
  post: {
    tags: ["Webhooks"],
    operationId: `webhooks.${type}`,
    summary: type,
    description: `${EVENT_TYPE_DESCRIPTIONS[type as keyof typeof EVENT_TYPE_DESCRIPTIONS]}\n\n` +
      "POSTed to every active webhook endpoint whose `enabled_events` include this type (or are empty or `[\"*\"]`), " +
      "signed with the `Service-Signature` header. The body is the same event `GET /v1/events/{id}` answers.",
    parameters: DELIVERY_HEADERS.map((header) => ({ ...header, in: "header", required: true, schema: { type: "string" } })),
    requestBody: {
      required: true,
      content: {
        "application/json": {
          schema: JSONSchema.fromAST(schema.ast, {
            definitions: spec.components.schemas,
            definitionPath: "#/components/schemas/",
            target: "openApi3.1"
          })
        }
      }
    },
    responses: {
      "2XX": { description: "Any 2xx within 10 seconds acknowledges the delivery; its body is ignored." },
      default: {
        description: "Anything else (another status, a redirect, a timeout, a refused connection) is a failed attempt: the " +
          "delivery is retried after 1 m, 5 m, 30 m, 2 h, 6 h, 12 h, 24 h and 24 h, then marked `exhausted`."
      }
    }
  }
})

/**
 * The event catalogue as OpenAPI 3.1 `webhooks`: one entry per event type the service emits, with
 * when it is sent, its headers and its payload schema (the envelope and its `data.object`).
 */
export const withEventCatalogue = (spec: Json): Json => {
  spec.webhooks = Object.fromEntries(eventSchemas().map(([type, schema]) => [type, webhookOf(spec, type, schema)]))
  return spec
}
