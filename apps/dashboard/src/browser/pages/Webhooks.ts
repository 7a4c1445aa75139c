import { DeliveryStatus, type WebhookDelivery, type WebhookEndpoint } from "@orchestrator/core"
import { ActionFailed, newIdempotencyKey } from "../Client.js"
import { confirmAction } from "../Confirm.js"
import { type PageContext, sameMode } from "../Context.js"
import { h } from "../Dom.js"
import { runAction } from "../Feedback.js"
import { when } from "../Format.js"
import { href, type Location, navigate } from "../Router.js"
import { badge, table } from "../Table.js"

const DELIVERY_FILTERS = ["status", "type", "endpoint_id"] as const

/** How many dead-letter deliveries a bulk resend would queue, counted page by page up to a bound. */
const COUNT_PAGES = 20

const reload = () => navigate(location.hash)

/** A secret the API shows once: on screen until the page changes, with a word that it will not come back. */
const secretOnce = (outlet: Element, endpoint: WebhookEndpoint) =>
  outlet.replaceChildren(
    h(
      "div",
      { class: "secret", role: "status", id: "endpoint-secret" },
      h("strong", {}, `Signing secret of ${endpoint.url}: `),
      h("span", { class: "mono" }, endpoint.secret ?? ""),
      h("p", {}, "Copy it now: it is shown this once and cannot be read again.")
    )
  )

/**
 * What the service did or will do about an endpoint whose deliveries keep failing: disabled after
 * 3 days of failures (its deliveries wait in the dead-letter set), or on its way there.
 */
const healthNotices = (shown: ReadonlyArray<WebhookEndpoint>) =>
  shown.filter((endpoint) => endpoint.failing_since !== null).map((endpoint) =>
    endpoint.status === "disabled"
      ? h(
        "div",
        { class: "failure", role: "alert", "data-endpoint-notice": endpoint.id },
        h("strong", {}, `${endpoint.url} is disabled. `),
        `Every delivery to it failed since ${when(endpoint.failing_since)} (the service disables an endpoint after 3 days of that): `,
        "nothing is sent to it now, and its deliveries end in the dead-letter set. ",
        "Fix the receiver, enable the endpoint, then resend its dead-letter deliveries."
      )
      : h(
        "div",
        { class: "secret", role: "status", "data-endpoint-notice": endpoint.id },
        h("strong", {}, `${endpoint.url} is failing. `),
        `Every delivery to it has failed since ${when(endpoint.failing_since)}; it is disabled once that has lasted 3 days.`
      )
  )

const endpointsSection = async (context: PageContext) => {
  const list = await context.api((client) => client.webhooks.listEndpoints({ urlParams: { limit: 100 } }))
  const endpoints = sameMode(context.mode, list.data)
  const outlet = h("div", { id: "endpoint-result" })

  const rowActions = (endpoint: WebhookEndpoint) => {
    const toggle = h(
      "button",
      { type: "button", class: "secondary", "data-endpoint": endpoint.id },
      endpoint.status === "active" ? "Disable" : "Enable"
    ) as HTMLButtonElement
    toggle.addEventListener("click", () =>
      runAction(toggle, outlet, async () => {
        const status = endpoint.status === "active" ? "disabled" : "active"
        if (status === "disabled") {
          const ok = await confirmAction("Disable this endpoint?", `${endpoint.url} receives nothing until it is enabled again.`, "Disable")
          if (!ok) return undefined
        }
        const key = newIdempotencyKey()
        await context.api((client) => client.webhooks.updateEndpoint({ path: { id: endpoint.id }, headers: { "idempotency-key": key }, payload: { status } }))
        reload()
        return undefined
      }))
    const rotate = h("button", { type: "button", class: "secondary" }, "Rotate secret") as HTMLButtonElement
    rotate.addEventListener("click", () =>
      runAction(rotate, outlet, async () => {
        const ok = await confirmAction(
          "Rotate the signing secret?",
          "A new secret is made; for 24 hours every delivery is signed with both, so the receiver can switch.",
          "Rotate"
        )
        if (!ok) return undefined
        const key = newIdempotencyKey()
        const rotated = await context.api((client) => client.webhooks.rotateSecret({ path: { id: endpoint.id }, headers: { "idempotency-key": key } }))
        secretOnce(outlet, rotated)
        return undefined
      }))
    return h("div", { class: "row-actions" }, toggle, rotate)
  }

  const endpointsTable = (shown: ReadonlyArray<WebhookEndpoint>) =>
    table(
      "Webhook endpoints",
      ["Endpoint", "URL", "Status", "Events", "Actions"],
      shown.map((endpoint) => [
        h("span", { class: "mono" }, endpoint.id),
        endpoint.url,
        badge(endpoint.status),
        endpoint.enabled_events.length === 0 ? "*" : endpoint.enabled_events.join(", "),
        rowActions(endpoint)
      ]),
      "No endpoint yet: add one to receive events.",
      { id: "endpoints-table" }
    )

  const url = h("input", { id: "endpoint-url", type: "url", required: true, placeholder: "https://example.com/hooks" }) as HTMLInputElement
  const events = h("input", { id: "endpoint-events", placeholder: "* (every event)" }) as HTMLInputElement
  const description = h("input", { id: "endpoint-description" }) as HTMLInputElement
  const create = h("button", { type: "submit" }, "Add endpoint") as HTMLButtonElement
  const form = h(
    "form",
    { class: "inline", "aria-label": "Add a webhook endpoint" },
    h("label", {}, "URL", url),
    h("label", {}, "Events (comma-separated)", events),
    h("label", {}, "Description", description),
    create
  )
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    void runAction(create, outlet, async () => {
      const enabled = events.value.split(",").map((type) => type.trim()).filter((type) => type !== "")
      const key = newIdempotencyKey()
      const endpoint = await context.api((client) =>
        client.webhooks.createEndpoint({
          headers: { "idempotency-key": key },
          payload: {
            url: url.value.trim(),
            ...(enabled.length === 0 ? {} : { enabled_events: enabled }),
            ...(description.value.trim() === "" ? {} : { description: description.value.trim() })
          }
        })
      )
      secretOnce(outlet, endpoint)
      // The secret stays on screen; only the list is redrawn.
      const fresh = await context.api((client) => client.webhooks.listEndpoints({ urlParams: { limit: 100 } }))
      document.getElementById("endpoints-table")?.replaceWith(endpointsTable(sameMode(context.mode, fresh.data)))
      url.value = ""
      return undefined
    })
  })

  return h(
    "section",
    { "aria-labelledby": "endpoints-title" },
    h("h2", { id: "endpoints-title" }, "Endpoints"),
    form,
    outlet,
    ...healthNotices(endpoints),
    endpointsTable(endpoints)
  )
}

/** Counts the deliveries a filter matches by walking the list; `undefined` past the bound. */
const countDeliveries = async (context: PageContext, filter: { status: DeliveryStatus; endpoint_id?: string; type?: string }) => {
  let count = 0
  let after: string | undefined
  for (let page = 0; page < COUNT_PAGES; page++) {
    const list = await context.api((client) =>
      client.webhooks.listDeliveries({ urlParams: { ...filter, limit: 100, ...(after === undefined ? {} : { starting_after: after }) } })
    )
    count += list.data.length
    if (list.next_cursor === null) return count
    after = list.next_cursor
  }
  return undefined
}

const deliveriesSection = async (context: PageContext, location: Location) => {
  const query = Object.fromEntries(DELIVERY_FILTERS.map((name) => [name, location.query.get(name) ?? undefined]))
  const after = location.query.get("starting_after") ?? undefined
  const filter = {
    ...(query.status === undefined ? {} : { status: query.status as DeliveryStatus }),
    ...(query.type === undefined ? {} : { type: query.type }),
    ...(query.endpoint_id === undefined ? {} : { endpoint_id: query.endpoint_id })
  }
  const list = await context.api((client) =>
    client.webhooks.listDeliveries({ urlParams: { ...filter, limit: 20, ...(after === undefined ? {} : { starting_after: after }) } })
  )
  const deliveries = sameMode(context.mode, list.data)

  const status = h(
    "select",
    { id: "filter-delivery-status", name: "status" },
    h("option", { value: "" }, "any"),
    DeliveryStatus.literals.map((value) => h("option", { value, selected: value === query.status }, value))
  )
  const text = (name: string, label: string) => h("label", {}, label, h("input", { id: `filter-${name}`, name, value: query[name] ?? "", autocomplete: "off" }))
  const form = h(
    "form",
    { class: "filters", role: "search", "aria-label": "Filter deliveries" },
    h("label", {}, "Status", status),
    text("type", "Event type"),
    text("endpoint_id", "Endpoint"),
    h("button", { type: "submit" }, "Filter"),
    h("a", { href: href("webhooks"), class: "button secondary" }, "Clear")
  )
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    const data = new FormData(form as HTMLFormElement)
    navigate(href("webhooks", Object.fromEntries(DELIVERY_FILTERS.map((name) => [name, String(data.get(name) ?? "").trim()]))))
  })

  const outlet = h("div", { id: "bulk-result" })
  const bulk = h("button", { type: "button", id: "bulk-resend", class: "danger" }, "Resend dead-letter deliveries…") as HTMLButtonElement
  bulk.addEventListener("click", () =>
    runAction(bulk, outlet, async () => {
      const scope = {
        status: "exhausted" as const,
        ...(query.endpoint_id === undefined ? {} : { endpoint_id: query.endpoint_id }),
        ...(query.type === undefined ? {} : { type: query.type })
      }
      const count = await countDeliveries(context, scope)
      if (count === 0) throw new ActionFailed("There is no exhausted delivery to resend.", undefined, undefined)
      const ok = await confirmAction(
        "Resend the dead-letter set?",
        `${count === undefined ? `More than ${COUNT_PAGES * 100}` : count} exhausted ${count === 1 ? "delivery is" : "deliveries are"} sent again now${
          query.endpoint_id === undefined ? "" : ` (endpoint ${query.endpoint_id})`
        }${query.type === undefined ? "" : ` (type ${query.type})`}.`,
        `Resend ${count ?? "all"}`
      )
      if (!ok) return undefined
      const key = newIdempotencyKey()
      const result = await context.api((client) => client.webhooks.resendDeliveries({ headers: { "idempotency-key": key }, payload: scope }))
      return `${result.queued} ${result.queued === 1 ? "delivery" : "deliveries"} queued to be sent again.`
    }))

  const rows = deliveries.map((delivery: WebhookDelivery) => [
    h("a", { href: href(`webhooks/deliveries/${delivery.id}`), class: "mono" }, delivery.id),
    delivery.type,
    badge(delivery.status),
    String(delivery.attempt_count),
    delivery.last_response_status === null ? (delivery.last_error ?? "—") : `HTTP ${delivery.last_response_status}`,
    h("span", { class: "mono" }, delivery.endpoint_id),
    when(delivery.created_at)
  ])
  return h(
    "section",
    { "aria-labelledby": "deliveries-title" },
    h("h2", { id: "deliveries-title" }, "Deliveries"),
    form,
    h("div", { class: "toolbar" }, bulk),
    outlet,
    table(
      "Webhook deliveries, newest first",
      ["Delivery", "Event type", "Status", "Attempts", "Last answer", "Endpoint", "Created"],
      rows,
      "No delivery matches these filters.",
      { id: "deliveries-table" }
    ),
    h(
      "nav",
      { class: "paging", "aria-label": "Pages" },
      after === undefined ? null : h("a", { href: href("webhooks", query), class: "button secondary" }, "First page"),
      list.next_cursor === null
        ? null
        : h("a", { href: href("webhooks", { ...query, starting_after: list.next_cursor }), class: "button", id: "next-page" }, "Next page")
    )
  )
}

/** Webhook endpoints and their deliveries: what the merchant's servers were sent, and what they answered. */
export const webhooksPage = async (context: PageContext, location: Location) => {
  const [endpoints, deliveries] = await Promise.all([endpointsSection(context), deliveriesSection(context, location)])
  return h("div", {}, h("h1", {}, "Webhooks"), endpoints, deliveries)
}
