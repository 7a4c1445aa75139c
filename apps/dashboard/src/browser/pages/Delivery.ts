import { newIdempotencyKey } from "../Client.js"
import { type PageContext, sameMode } from "../Context.js"
import { h } from "../Dom.js"
import { runAction } from "../Feedback.js"
import { millis, when } from "../Format.js"
import { href, navigate } from "../Router.js"
import { badge, table } from "../Table.js"

const field = (label: string, value: Node | string) => [h("dt", {}, label), h("dd", {}, value)]

/** One delivery: each attempt with the receiver's status code and body, and a one-click resend. */
export const deliveryPage = async (context: PageContext, id: string) => {
  const delivery = await context.api((client) => client.webhooks.retrieveDelivery({ path: { id } }))
  sameMode(context.mode, [delivery])
  const outlet = h("div", { id: "action-result" })
  const resend = h("button", { type: "button", id: "resend" }, "Resend now") as HTMLButtonElement
  // One click: resending is safe to repeat (receivers deduplicate by event id), so it asks nothing.
  resend.addEventListener("click", () =>
    runAction(resend, outlet, async () => {
      const key = newIdempotencyKey()
      const resent = await context.api((client) => client.webhooks.resendDelivery({ path: { id }, headers: { "idempotency-key": key } }))
      navigate(href(`webhooks/deliveries/${id}`))
      return `Queued: the delivery is ${resent.status} and is being sent now.`
    }))
  const refresh = h("a", { href: href(`webhooks/deliveries/${id}`), class: "button secondary", id: "refresh" }, "Refresh")
  refresh.addEventListener("click", (event) => {
    event.preventDefault()
    navigate(href(`webhooks/deliveries/${id}`))
  })
  const attempts = (delivery.attempts ?? []).map((attempt, index) => [
    String(index + 1),
    when(attempt.attempted_at),
    attempt.response_status === null ? "no answer" : `HTTP ${attempt.response_status}`,
    millis(attempt.duration_ms),
    attempt.error ?? "",
    attempt.response_body === null ? "" : h("pre", {}, attempt.response_body)
  ])
  return h(
    "article",
    { "aria-labelledby": "delivery-title" },
    h("p", {}, h("a", { href: href("webhooks") }, "← Webhooks")),
    h("h1", { id: "delivery-title" }, delivery.type, " ", h("span", { id: "delivery-status" }, badge(delivery.status))),
    h(
      "dl",
      { class: "facts" },
      field("Delivery", h("span", { class: "mono" }, delivery.id)),
      field("Event", h("span", { class: "mono" }, delivery.event_id)),
      field("Endpoint", h("span", { class: "mono" }, delivery.endpoint_id)),
      field("Attempts", String(delivery.attempt_count)),
      field("Next attempt", when(delivery.next_attempt_at)),
      field("Delivered", when(delivery.delivered_at)),
      field("Created", when(delivery.created_at))
    ),
    h("div", { class: "actions-panel" }, resend, refresh, outlet),
    h("h2", {}, "Attempts"),
    table("Delivery attempts", ["#", "At", "Answer", "Took", "Error", "Response body"], attempts, "Not attempted yet.", { id: "attempts-table" }),
    h("h2", {}, "Payload"),
    h("pre", { id: "delivery-payload" }, JSON.stringify(delivery.payload, null, 2))
  )
}
