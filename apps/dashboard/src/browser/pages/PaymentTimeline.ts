import { type PageContext, sameMode } from "../Context.js"
import { h } from "../Dom.js"
import { when } from "../Format.js"
import { href } from "../Router.js"
import { badge } from "../Table.js"

/** The payment's events, oldest first, each with the webhook deliveries it caused. */
export const paymentTimeline = async (context: PageContext, id: string) => {
  const timeline = await context.api((client) => client.insights.paymentTimeline({ path: { id } }))
  sameMode(context.mode, [...timeline.events, ...timeline.deliveries])
  const items = timeline.events.map((event) => {
    const deliveries = timeline.deliveries.filter((delivery) => delivery.event_id === event.id)
    return h(
      "li",
      {},
      h("div", { class: "timeline-head" }, h("strong", {}, event.type), " ", h("time", {}, when(event.created_at))),
      h("span", { class: "mono muted" }, event.id),
      deliveries.length === 0
        ? h("div", { class: "muted" }, "No webhook delivery.")
        : h(
          "ul",
          { class: "deliveries" },
          deliveries.map((delivery) =>
            h(
              "li",
              {},
              "Webhook ",
              badge(delivery.status),
              " ",
              h("a", { href: href(`webhooks/deliveries/${delivery.id}`), class: "mono" }, delivery.id),
              ` · ${delivery.attempt_count} ${delivery.attempt_count === 1 ? "attempt" : "attempts"}`,
              delivery.last_response_status === null ? "" : ` · last answer HTTP ${delivery.last_response_status}`
            )
          )
        )
    )
  })
  return h(
    "section",
    { "aria-labelledby": "timeline-title" },
    h("h2", { id: "timeline-title" }, "Timeline"),
    items.length === 0 ? h("p", { class: "empty" }, "No event (events are kept 30 days).") : h("ol", { class: "timeline", id: "timeline" }, items)
  )
}
