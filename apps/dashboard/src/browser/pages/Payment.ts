import { type Currency, fromDecimalString, isVaultToken, type Payment, type PaymentMethodResource } from "@orchestrator/core"
import { ActionFailed, newIdempotencyKey } from "../Client.js"
import { confirmAction } from "../Confirm.js"
import { type PageContext, sameMode } from "../Context.js"
import { h } from "../Dom.js"
import { runAction } from "../Feedback.js"
import { millis, money, when } from "../Format.js"
import { href, navigate } from "../Router.js"
import { badge, paymentBadges, table } from "../Table.js"
import { DISPUTE_HEADERS, disputeRows } from "./DisputeRows.js"
import { paymentTimeline } from "./PaymentTimeline.js"
import { vaultedCardLink } from "./VaultedCard.js"

const field = (label: string, value: Node | string) => [h("dt", {}, label), h("dd", {}, value)]

const reload = (id: string) => navigate(href(`payments/${id}`))

/** Refund, capture and cancel: each asks first and carries one Idempotency-Key for its confirmation. */
const actions = (context: PageContext, payment: Payment) => {
  const outlet = h("div", { id: "action-result" })
  const refundable = payment.amount_captured - payment.amount_refunded
  const controls: Array<Node> = []
  if (payment.status === "succeeded" && refundable > 0) {
    const amount = h("input", {
      id: "refund-amount",
      inputmode: "decimal",
      placeholder: money(refundable, payment.currency),
      "aria-describedby": "refund-hint"
    }) as HTMLInputElement
    const reason = h("input", { id: "refund-reason", maxlength: "500" }) as HTMLInputElement
    const button = h("button", { type: "submit", id: "refund" }, "Refund…") as HTMLButtonElement
    const form = h(
      "form",
      { class: "action", "aria-label": "Refund" },
      h("label", { for: "refund-amount" }, "Refund amount"),
      amount,
      h("small", { id: "refund-hint" }, `Empty refunds everything left: ${money(refundable, payment.currency)}.`),
      h("label", { for: "refund-reason" }, "Reason (optional)"),
      reason,
      button
    )
    form.addEventListener("submit", (event) => {
      event.preventDefault()
      void runAction(button, outlet, async () => {
        const text = amount.value.trim()
        const minor = text === "" ? refundable : fromDecimalString(text, payment.currency as Currency)
        if (minor === undefined || minor <= 0) {
          throw new ActionFailed(
            `Enter an amount such as ${money(refundable, payment.currency).split(" ")[0]}, or leave it empty to refund everything left.`,
            undefined,
            undefined
          )
        }
        const ok = await confirmAction(
          "Refund this payment?",
          `${money(minor, payment.currency)} goes back to the customer through ${payment.provider}. This cannot be undone.`,
          `Refund ${money(minor, payment.currency)}`
        )
        if (!ok) return undefined
        const key = newIdempotencyKey()
        const refund = await context.api((client) =>
          client.refunds.create({
            path: { id: payment.id },
            headers: { "idempotency-key": key },
            payload: { ...(text === "" ? {} : { amount: minor }), ...(reason.value.trim() === "" ? {} : { reason: reason.value.trim() }) }
          })
        )
        reload(payment.id)
        return `Refund ${refund.id} is ${refund.status}.`
      }).catch(() => undefined)
    })
    controls.push(form)
  }
  if (payment.status === "requires_capture") {
    const button = h("button", { type: "button", id: "capture" }, "Capture…") as HTMLButtonElement
    button.addEventListener("click", () =>
      runAction(button, outlet, async () => {
        const ok = await confirmAction("Capture this payment?", `${money(payment.amount, payment.currency)} will be charged.`, "Capture")
        if (!ok) return undefined
        const key = newIdempotencyKey()
        await context.api((client) => client.payments.capture({ path: { id: payment.id }, headers: { "idempotency-key": key }, payload: null }))
        reload(payment.id)
        return "Captured."
      }))
    controls.push(button)
  }
  if (["created", "requires_action", "requires_capture", "processing"].includes(payment.status)) {
    const button = h("button", { type: "button", id: "cancel", class: "danger" }, "Cancel payment…") as HTMLButtonElement
    button.addEventListener("click", () =>
      runAction(button, outlet, async () => {
        const ok = await confirmAction("Cancel this payment?", "The authorization is released and the payment cannot be completed.", "Cancel payment")
        if (!ok) return undefined
        const key = newIdempotencyKey()
        await context.api((client) => client.payments.cancel({ path: { id: payment.id }, headers: { "idempotency-key": key }, payload: null }))
        reload(payment.id)
        return "Canceled."
      }))
    controls.push(button)
  }
  return controls.length === 0 ? null : h("section", { class: "actions-panel", "aria-label": "Actions" }, controls, outlet)
}

/** The vaulted card a payment was made with, or `"deleted"` once its data is destroyed; `undefined` when it was no vaulted card. */
const vaultedCardOf = async (context: PageContext, payment: Payment): Promise<PaymentMethodResource | "deleted" | undefined> => {
  const token = payment.payment_method.type === "card" ? payment.payment_method.token : null
  if (!isVaultToken(token)) return undefined
  return context.api((client) => client.paymentMethods.retrieve({ path: { id: token } })).catch((failure: unknown) => {
    if (failure instanceof ActionFailed && failure.code === "resource_missing") return "deleted" as const
    throw failure
  })
}

/** What the payment was made with: its vaulted card (linked to its page), the card the PSP reported, or the wallet. */
const methodField = (payment: Payment, vaulted: PaymentMethodResource | "deleted" | undefined) => {
  if (vaulted === "deleted") {
    return field("Vaulted card", h("span", { id: "payment-method-link" }, h("span", { class: "mono" }, payment.payment_method.token ?? ""), " (deleted)"))
  }
  if (vaulted !== undefined) return field("Vaulted card", vaultedCardLink(vaulted))
  // A wallet (PayPal) has no card to show: its method's name instead.
  return payment.payment_method.type === "card"
    ? field("Card", `${payment.payment_method.brand ?? payment.payment_method.type} ${payment.payment_method.last4 ?? ""}`)
    : field("Payment method", payment.payment_method.type === "paypal" ? "PayPal" : payment.payment_method.type)
}

/** One payment: what it is, why it failed, each attempt per PSP, its refunds and its timeline. */
export const paymentPage = async (context: PageContext, id: string) => {
  const [payment, refunds, disputes] = await Promise.all([
    context.api((client) => client.payments.retrieve({ path: { id } })),
    context.api((client) => client.refunds.list({ urlParams: { payment_id: id, limit: 100 } })),
    context.api((client) => client.disputes.list({ urlParams: { payment_id: id, limit: 100 } }))
  ])
  sameMode(context.mode, [payment, ...refunds.data, ...disputes.data])
  const vaulted = await vaultedCardOf(context, payment)
  if (typeof vaulted === "object") sameMode(context.mode, [vaulted])
  const attempts = payment.attempts.map((attempt, index) => [
    String(index + 1),
    attempt.provider,
    badge(attempt.status),
    millis(attempt.latency_ms),
    attempt.error_code ?? "",
    when(attempt.created_at)
  ])
  const refundRows = refunds.data.map((refund) => [
    h("span", { class: "mono" }, refund.id),
    badge(refund.status),
    money(refund.amount, refund.currency),
    refund.reason ?? "",
    refund.failure?.message ?? "",
    when(refund.created_at)
  ])
  return h(
    "article",
    { "aria-labelledby": "payment-title" },
    h("p", {}, h("a", { href: href("payments") }, "← Payments")),
    h("h1", { id: "payment-title" }, money(payment.amount, payment.currency), " ", paymentBadges(payment)),
    payment.failure === null
      ? null
      : h(
        "div",
        { class: "failure", id: "payment-failure", role: "note" },
        h("strong", {}, "Why it failed: "),
        `${payment.failure.message} (${payment.failure.code})`
      ),
    h(
      "dl",
      { class: "facts" },
      field("Payment", h("span", { class: "mono", id: "payment-id" }, payment.id)),
      field("Provider", payment.provider),
      field("Routing", `${payment.routing.strategy}${payment.routing.rule_id === null ? "" : ` (${payment.routing.rule_id})`}`),
      field("Captured", money(payment.amount_captured, payment.currency)),
      field("Refunded", money(payment.amount_refunded, payment.currency)),
      methodField(payment, vaulted),
      field("Customer", payment.customer_id ?? "—"),
      field("Created", when(payment.created_at))
    ),
    actions(context, payment),
    h("h2", {}, "Attempts"),
    table("Attempts per provider", ["#", "Provider", "Status", "Latency", "Error", "At"], attempts, "No attempt yet.", { id: "attempts-table" }),
    h("h2", {}, "Refunds"),
    table("Refunds", ["Refund", "Status", "Amount", "Reason", "Failure", "Created"], refundRows, "No refund.", { id: "refunds-table" }),
    h("h2", {}, "Disputes"),
    table("Disputes of this payment, newest first", DISPUTE_HEADERS, disputeRows(disputes.data), "No dispute.", { id: "payment-disputes-table" }),
    await paymentTimeline(context, payment.id)
  )
}
