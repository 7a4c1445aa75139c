import { newIdempotencyKey } from "../Client.js"
import { confirmAction } from "../Confirm.js"
import { circuitOf, lastErrorOf } from "../ConnectionHealth.js"
import { type PageContext, sameMode } from "../Context.js"
import { h } from "../Dom.js"
import { runAction } from "../Feedback.js"
import { millis, percent, when } from "../Format.js"
import { href, navigate } from "../Router.js"
import { badge, table } from "../Table.js"

const HOURS = 24

/** Provider connections with their health: circuit, last error, and the last day's success rate and latency. */
export const connectionsPage = async (context: PageContext) => {
  const [connections, insights, organization] = await Promise.all([
    context.api((client) => client.providers.list({ urlParams: { limit: 100 } })),
    context.api((client) => client.insights.insights({ urlParams: { hours: HOURS } })),
    context.api((client) => client.organization.retrieve())
  ])
  sameMode(context.mode, [...connections.data, insights])
  const outlet = h("div", { id: "connections-result" })
  const now = Date.now()
  const toggle = (connection: (typeof connections.data)[number]) => {
    if (connection.name === organization.default_provider) return h("span", { class: "muted" }, "default provider")
    const next = connection.status === "disabled" ? "active" : "disabled"
    const button = h("button", { type: "button", class: "secondary" }, next === "disabled" ? "Disable" : "Enable") as HTMLButtonElement
    button.addEventListener("click", () =>
      runAction(button, outlet, async () => {
        if (
          next === "disabled" && !(await confirmAction("Disable this connection?", `No payment is sent to ${connection.name} while it is disabled.`, "Disable"))
        ) {
          return undefined
        }
        const key = newIdempotencyKey()
        await context.api((client) => client.providers.update({ path: { id: connection.id }, headers: { "idempotency-key": key }, payload: { status: next } }))
        navigate(href("connections"))
        return undefined
      }))
    return button
  }
  return h(
    "div",
    {},
    h("h1", {}, "Connections"),
    outlet,
    table(
      "Provider connections",
      ["Name", "Type", "Status", "Circuit", "Failures in a row", "Last error", `Success (${HOURS} h)`, `Latency (${HOURS} h)`, "Updated", "Actions"],
      connections.data.map((connection) => {
        const stats = insights.providers.find((provider) => provider.provider === connection.name)
        return [
          connection.name,
          connection.type,
          badge(connection.status),
          badge(circuitOf(connection, now)),
          String(connection.consecutive_failures),
          connection.last_error === null ? "" : lastErrorOf(connection),
          percent(stats?.success_rate),
          millis(stats?.latency_ms_avg),
          when(connection.updated_at),
          toggle(connection)
        ]
      }),
      "No connection.",
      { id: "connections-table" }
    )
  )
}
