import type { Currency, RoutingRule } from "@orchestrator/core"
import { ActionFailed, newIdempotencyKey } from "../Client.js"
import { confirmAction } from "../Confirm.js"
import { type PageContext, sameMode } from "../Context.js"
import { h } from "../Dom.js"
import { runAction } from "../Feedback.js"
import { href, navigate } from "../Router.js"
import { badge, table } from "../Table.js"

/** Priorities the dashboard gives when it reorders: room to insert between two rules by hand. */
const PRIORITY_STEP = 10

const reload = () => navigate(href("routing"))

const list = (text: string) => text.split(",").map((item) => item.trim()).filter((item) => item !== "")

/** A rule's conditions in words: `{}` matches every payment. */
const describeConditions = (rule: RoutingRule) => {
  const { currency, country, method, amount } = rule.conditions
  const parts = [
    currency === undefined ? null : `currency ${currency.join(" or ")}`,
    country === undefined ? null : `country ${country.join(" or ")}`,
    method === undefined ? null : `method ${method.join(" or ")}`,
    amount === undefined
      ? null
      : `amount ${amount.gte === undefined ? "" : `≥ ${amount.gte}`}${amount.gte !== undefined && amount.lte !== undefined ? " and " : ""}${
        amount.lte === undefined ? "" : `≤ ${amount.lte}`
      } (minor units)`
  ].filter((part) => part !== null)
  return parts.length === 0 ? "every payment" : parts.join(", ")
}

const input = (id: string, label: string, attributes: Record<string, string> = {}) => {
  const element = h("input", { id, name: id, autocomplete: "off", ...attributes }) as HTMLInputElement
  return { element, field: h("label", {}, label, element) }
}

/** The rules' new priorities for `order`: only the rules whose priority changes are written. */
const reprioritize = async (context: PageContext, order: ReadonlyArray<RoutingRule>) => {
  for (const [index, rule] of order.entries()) {
    const priority = (index + 1) * PRIORITY_STEP
    if (rule.priority === priority) continue
    const key = newIdempotencyKey()
    await context.api((client) => client.routing.update({ path: { id: rule.id }, headers: { "idempotency-key": key }, payload: { priority } }))
  }
}

const ruleForm = (context: PageContext, providers: ReadonlyArray<string>, rules: ReadonlyArray<RoutingRule>) => {
  const outlet = h("div", { id: "rule-result" })
  const ruleId = h("input", { type: "hidden", id: "rule-id" }) as HTMLInputElement
  const priority = input("rule-priority", "Priority (lowest first)", {
    type: "number",
    min: "0",
    max: "1000000",
    required: "",
    value: String((rules.at(-1)?.priority ?? 0) + PRIORITY_STEP)
  })
  const provider = h("select", { id: "rule-provider", required: true }, providers.map((name) => h("option", { value: name }, name))) as HTMLSelectElement
  const currency = input("rule-currency", "Currencies (e.g. EUR, USD)")
  const country = input("rule-country", "Card countries (e.g. DE, FR)")
  const method = input("rule-method", "Methods (e.g. card)")
  const gte = input("rule-amount-gte", "Amount ≥ (minor units)", { type: "number", min: "0" })
  const lte = input("rule-amount-lte", "Amount ≤ (minor units)", { type: "number", min: "0" })
  const enabled = h("input", { type: "checkbox", id: "rule-enabled", checked: true }) as HTMLInputElement
  const submit = h("button", { type: "submit", id: "rule-save" }, "Add rule") as HTMLButtonElement
  const form = h(
    "form",
    { class: "inline", id: "rule-form", "aria-label": "Routing rule" },
    ruleId,
    priority.field,
    h("label", {}, "Provider", provider),
    currency.field,
    country.field,
    method.field,
    gte.field,
    lte.field,
    h("label", { class: "checkbox" }, enabled, "Enabled"),
    submit
  ) as HTMLFormElement
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    void runAction(submit, outlet, async () => {
      const amount = {
        ...(gte.element.value === "" ? {} : { gte: Number(gte.element.value) }),
        ...(lte.element.value === "" ? {} : { lte: Number(lte.element.value) })
      }
      const conditions = {
        ...(list(currency.element.value).length === 0 ? {} : { currency: list(currency.element.value).map((code) => code.toUpperCase()) }),
        ...(list(country.element.value).length === 0 ? {} : { country: list(country.element.value).map((code) => code.toUpperCase()) }),
        ...(list(method.element.value).length === 0 ? {} : { method: list(method.element.value) }),
        ...(Object.keys(amount).length === 0 ? {} : { amount })
      }
      const payload = {
        priority: Number(priority.element.value),
        conditions,
        action: { provider: provider.value },
        enabled: enabled.checked
      }
      const key = newIdempotencyKey()
      const id = ruleId.value
      if (id === "") {
        await context.api((client) => client.routing.create({ headers: { "idempotency-key": key }, payload }))
      } else {
        await context.api((client) => client.routing.update({ path: { id }, headers: { "idempotency-key": key }, payload }))
      }
      reload()
      return undefined
    })
  })
  const edit = (rule: RoutingRule) => {
    ruleId.value = rule.id
    priority.element.value = String(rule.priority)
    provider.value = rule.action.provider
    currency.element.value = rule.conditions.currency?.join(", ") ?? ""
    country.element.value = rule.conditions.country?.join(", ") ?? ""
    method.element.value = rule.conditions.method?.join(", ") ?? ""
    gte.element.value = rule.conditions.amount?.gte === undefined ? "" : String(rule.conditions.amount.gte)
    lte.element.value = rule.conditions.amount?.lte === undefined ? "" : String(rule.conditions.amount.lte)
    enabled.checked = rule.enabled
    submit.textContent = `Save ${rule.id}`
    priority.element.focus()
  }
  return { element: h("div", {}, form, outlet), edit }
}

/** How the dry run's answer names a routing mode. */
const modeWords = { rules: "routed by the rules", default: "sent to the default provider" } as const

const dryRun = (context: PageContext, current: "default" | "rules") => {
  const outlet = h("div", { id: "dry-run-result", "aria-live": "polite" })
  const amount = input("dry-amount", "Amount (minor units)", { type: "number", min: "1", required: "", value: "2500" })
  const currency = input("dry-currency", "Currency", { required: "", value: "EUR", maxlength: "3" })
  const method = input("dry-method", "Method", { required: "", value: "card" })
  const country = input("dry-country", "Card country", { maxlength: "2" })
  const token = input("dry-token", "Card token (e.g. tok_visa_fr)")
  // The organization's mode unless asked about the other, as the API answers.
  const mode = h(
    "select",
    { id: "dry-mode" },
    h("option", { value: "rules", selected: current === "rules" }, "Routing rules"),
    h("option", { value: "default", selected: current === "default" }, "Default provider only")
  ) as HTMLSelectElement
  const submit = h("button", { type: "submit", id: "dry-run" }, "Where would it go?") as HTMLButtonElement
  const form = h(
    "form",
    { class: "inline", "aria-label": "Dry run" },
    amount.field,
    currency.field,
    method.field,
    country.field,
    token.field,
    h("label", {}, "Payments routed by", mode),
    submit
  )
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    void runAction(submit, outlet, async () => {
      const decision = await context.api((client) =>
        client.routing.evaluate({
          payload: {
            amount: Number(amount.element.value),
            // Checked against the API's schema before it is sent; a wrong code is refused in words.
            currency: currency.element.value.trim().toUpperCase() as Currency,
            payment_method: {
              type: method.element.value.trim(),
              ...(country.element.value.trim() === "" ? {} : { country: country.element.value.trim().toUpperCase() }),
              ...(token.element.value.trim() === "" ? {} : { token: token.element.value.trim() })
            },
            mode: mode.value === "rules" ? "rules" : "default"
          }
        })
      )
      outlet.replaceChildren(
        h(
          "div",
          { class: "card", id: "dry-run-decision" },
          h(
            "p",
            { id: "dry-run-mode", class: "muted" },
            `With payments ${modeWords[decision.mode]}${decision.mode === current ? " (as now)" : " (not how payments are routed now)"}` +
              (decision.payment_method.country === null ? "" : `; card country ${decision.payment_method.country}`) +
              (decision.payment_method.brand === null ? "" : `, ${decision.payment_method.brand}`) + "."
          ),
          decision.provider === null
            ? h("p", { class: "error" }, "No provider could take this payment.")
            : h(
              "p",
              {},
              "Goes to ",
              h("strong", { id: "dry-run-provider" }, decision.provider),
              decision.rule_id === null ? " (the default provider)" : ` by rule ${decision.rule_id}`,
              decision.fallbacks.length === 0 ? "" : `; falls back to ${decision.fallbacks.join(", ")}`
            ),
          table(
            "Candidates in the order they were considered",
            ["Rule", "Priority", "Provider", "Result", "Why"],
            decision.candidates.map((candidate) => [
              candidate.rule_id ?? "default provider",
              candidate.priority === null ? "—" : String(candidate.priority),
              candidate.provider,
              badge(candidate.result),
              candidate.reason === null ? (candidate.trial ? "trial call through an open circuit" : "") : candidate.reason.replaceAll("_", " ")
            ]),
            "No candidate.",
            { id: "dry-run-candidates" }
          )
        )
      )
      return undefined
    })
  })
  return h(
    "section",
    { "aria-labelledby": "dry-run-title" },
    h("h2", { id: "dry-run-title" }, "Dry run"),
    current === "rules"
      ? null
      : h("p", { class: "muted" }, "Payments are not routed by rules now: choose \"Routing rules\" to see where they would go if they were."),
    form,
    outlet
  )
}

/** Routing rules in the order they are evaluated, with create, edit, enable, reorder and a dry run. */
export const routingPage = async (context: PageContext) => {
  const [rulesList, connections, organization] = await Promise.all([
    context.api((client) => client.routing.list({ urlParams: { limit: 100 } })),
    context.api((client) => client.providers.list({ urlParams: { limit: 100 } })),
    context.api((client) => client.organization.retrieve())
  ])
  const rules = sameMode(context.mode, rulesList.data)
  sameMode(context.mode, connections.data)
  const form = ruleForm(context, connections.data.map((connection) => connection.name), rules)
  const outlet = h("div", { id: "rules-result" })

  const move = (index: number, by: -1 | 1) => {
    const button = h("button", {
      type: "button",
      class: "secondary",
      "aria-label": `Move rule ${index + 1} ${by < 0 ? "up" : "down"}`,
      disabled: index + by < 0 || index + by >= rules.length
    }, by < 0 ? "↑" : "↓") as HTMLButtonElement
    button.addEventListener("click", () =>
      runAction(button, outlet, async () => {
        const order = [...rules]
        const [rule] = order.splice(index, 1)
        order.splice(index + by, 0, rule!)
        await reprioritize(context, order)
        reload()
        return undefined
      }))
    return button
  }
  const toggle = (rule: RoutingRule) => {
    const button = h("button", { type: "button", class: "secondary" }, rule.enabled ? "Disable" : "Enable") as HTMLButtonElement
    button.addEventListener("click", () =>
      runAction(button, outlet, async () => {
        const key = newIdempotencyKey()
        await context.api((client) =>
          client.routing.update({ path: { id: rule.id }, headers: { "idempotency-key": key }, payload: { enabled: !rule.enabled } })
        )
        reload()
        return undefined
      }))
    return button
  }
  const remove = (rule: RoutingRule) => {
    const button = h("button", { type: "button", class: "secondary" }, "Delete") as HTMLButtonElement
    button.addEventListener("click", () =>
      runAction(button, outlet, async () => {
        if (!(await confirmAction("Delete this rule?", `Payments stop going to ${rule.action.provider} by this rule.`, "Delete"))) return undefined
        await context.api((client) => client.routing.delete({ path: { id: rule.id } }))
        reload()
        return undefined
      }))
    return button
  }
  const editButton = (rule: RoutingRule) => h("button", { type: "button", class: "secondary", onclick: () => form.edit(rule) }, "Edit")

  const routingMode = h(
    "button",
    { type: "button", class: "secondary", id: "routing-mode" },
    organization.payments_routing === "rules" ? "Send every payment to the default provider instead" : "Route payments by these rules"
  ) as HTMLButtonElement
  routingMode.addEventListener("click", () =>
    runAction(routingMode, outlet, async () => {
      const key = newIdempotencyKey()
      const next = organization.payments_routing === "rules" ? "default" : "rules"
      if (
        !(await confirmAction(
          "Change how payments are routed?",
          next === "rules"
            ? "New payments are routed by the enabled rules, with the default provider as the last resort."
            : `Every new payment goes to ${organization.default_provider ?? "the default provider"}.`,
          "Change"
        ))
      ) return undefined
      await context.api((client) => client.organization.update({ headers: { "idempotency-key": key }, payload: { payments_routing: next } }))
      reload()
      return undefined
    }))

  if (connections.data.length === 0) throw new ActionFailed("Connect a provider first: rules send payments to connections.", undefined, undefined)
  return h(
    "div",
    {},
    h("h1", {}, "Routing"),
    h(
      "p",
      { id: "routing-strategy" },
      organization.payments_routing === "rules"
        ? `Payments are routed by the rules below; ${organization.default_provider ?? "the default provider"} is the last resort. `
        : `Every payment goes to the default provider, ${organization.default_provider ?? "(none)"}; the rules are not used. `,
      routingMode
    ),
    h("h2", {}, "Rules, in the order they are evaluated"),
    outlet,
    table(
      "Routing rules in evaluation order",
      ["#", "Priority", "When", "Provider", "Status", "Order", "Actions"],
      rules.map((rule, index) => [
        String(index + 1),
        String(rule.priority),
        describeConditions(rule),
        rule.action.provider,
        badge(rule.enabled ? "active" : "disabled"),
        h("div", { class: "row-actions" }, move(index, -1), move(index, 1)),
        h("div", { class: "row-actions" }, editButton(rule), toggle(rule), remove(rule))
      ]),
      "No rule: every payment goes to the default provider.",
      { id: "rules-table" }
    ),
    h("h2", {}, "Add or edit a rule"),
    form.element,
    dryRun(context, organization.payments_routing)
  )
}
