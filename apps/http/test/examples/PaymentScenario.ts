import { get, patch, post, sandboxA, type ScenarioStep, step } from "./ScenarioStep.js"

const card = (token: string) => ({ type: "card", token })
const RETURN_URL = "https://shop.example/thanks"

/** The merchant's setup: the organization, a second sandbox connection and a routing rule that uses it. */
export const setupSteps: ReadonlyArray<ScenarioStep> = [
  step("organization.retrieve", "organization", 200, "The organization and its routing settings", () => get("/v1/organization")),
  step("providers.list", "connections", 200, "The connections: a new organization has the sandbox", () => get("/v1/provider-connections"), {
    saveAs: "connections"
  }),
  step("providers.create", "sandbox", 201, "Connect a second sandbox (a PSP of its own, for failover)", () =>
    post("/v1/provider-connections", {
      name: "sandbox_backup",
      display_name: "Sandbox (backup)",
      type: "sandbox",
      credentials: { api_key: "sandbox_example_key" },
      webhook_secret: "sandbox_example_webhook_secret",
      supported_currencies: ["EUR", "USD"]
    }, "connect-sandbox-backup"), { saveAs: "backup" }),
  step(
    "providers.create",
    "name_taken",
    409,
    "A connection of that name exists already",
    () => post("/v1/provider-connections", { name: "sandbox_backup", type: "sandbox" }, "connect-sandbox-backup-again")
  ),
  step(
    "providers.create",
    "unknown_type",
    422,
    "No connector of that type",
    () => post("/v1/provider-connections", { name: "acme", type: "acme_pay" }, "connect-acme")
  ),
  step("providers.retrieve", "connection", 200, "One connection", (saved) => get(`/v1/provider-connections/${saved("backup").id}`)),
  step(
    "providers.update",
    "display_name",
    200,
    "Rename a connection",
    (saved) => patch(`/v1/provider-connections/${saved("backup").id}`, { display_name: "Sandbox (failover)" }, "rename-backup")
  ),
  step(
    "organization.update",
    "rules",
    200,
    "Route payments by the routing rules",
    () => patch("/v1/organization", { default_provider: "sandbox_a", payments_routing: "rules" })
  ),
  step(
    "organization.update",
    "display_name",
    200,
    "Name the shop as its customers see it on the checkout page",
    () => patch("/v1/organization", { display_name: "Acme Shop" })
  ),
  step(
    "organization.update",
    "unknown_provider",
    422,
    "The default provider must be a connection",
    () => patch("/v1/organization", { default_provider: "no_such_connection" })
  ),
  step("routing.create", "usd_to_backup", 201, "Send USD payments to the backup sandbox", () =>
    post("/v1/routing-rules", {
      priority: 10,
      conditions: { currency: ["USD"], amount: { gte: 1, lte: 100000 } },
      action: { provider: "sandbox_backup" }
    }, "rule-usd"), { saveAs: "rule" }),
  step(
    "routing.create",
    "unknown_provider",
    422,
    "A rule must name a connection",
    () => post("/v1/routing-rules", { priority: 20, conditions: {}, action: { provider: "no_such_connection" } }, "rule-unknown")
  ),
  step("routing.list", "rules", 200, "The routing rules, by priority", () => get("/v1/routing-rules")),
  step("routing.retrieve", "rule", 200, "One routing rule", (saved) => get(`/v1/routing-rules/${saved("rule").id}`)),
  step(
    "routing.update",
    "priority",
    200,
    "Change a rule's priority",
    (saved) => patch(`/v1/routing-rules/${saved("rule").id}`, { priority: 5 }, "rule-usd-priority")
  ),
  step(
    "routing.evaluate",
    "usd",
    200,
    "Where a USD payment would go, and why (nothing is charged)",
    () => post("/v1/routing-rules/evaluate", { amount: 2500, currency: "USD", payment_method: card("tok_visa") })
  )
]

/** Payments in every outcome, then what can be done with them. */
export const paymentSteps: ReadonlyArray<ScenarioStep> = [
  step("payments.create", "succeeded", 201, "A card payment that succeeds", () =>
    post("/v1/payments", {
      amount: 2500,
      currency: "EUR",
      payment_method: card("tok_visa"),
      description: "Order 1001",
      metadata: { order_id: "1001" }
    }, "order-1001"), { saveAs: "paid" }),
  step("payments.create", "replayed", 201, "The same request again: the first answer, replayed (Idempotent-Replayed: true)", () =>
    post("/v1/payments", {
      amount: 2500,
      currency: "EUR",
      payment_method: card("tok_visa"),
      description: "Order 1001",
      metadata: { order_id: "1001" }
    }, "order-1001")),
  step(
    "payments.create",
    "key_reused",
    422,
    "The same Idempotency-Key with another body",
    () => post("/v1/payments", { amount: 9900, currency: "EUR", payment_method: card("tok_visa") }, "order-1001")
  ),
  step(
    "payments.create",
    "declined",
    402,
    "A decline: 402, with the failed payment inside the error",
    () => post("/v1/payments", { amount: 2500, currency: "EUR", payment_method: card("tok_chargeDeclined") }, "order-1002")
  ),
  step(
    "payments.create",
    "requires_action",
    201,
    "3D Secure: the payment waits in requires_action; the customer opens next_action.url",
    () =>
      post("/v1/payments", {
        amount: 2500,
        currency: "EUR",
        return_url: RETURN_URL,
        payment_method: card("tok_threeDSecureRequired")
      }, "order-1003"),
    { saveAs: "threeDs" }
  ),
  step(
    "payments.create",
    "return_url_required",
    422,
    "3D Secure without a return_url: the payment is canceled",
    () => post("/v1/payments", { amount: 2500, currency: "EUR", payment_method: card("tok_threeDSecureRequired") }, "order-1004")
  ),
  step(
    "payments.create",
    "invalid_amount",
    400,
    "Amounts are integers in minor units: 10.5 is refused",
    () => post("/v1/payments", { amount: 10.5, currency: "EUR", payment_method: card("tok_visa") }, "order-1005")
  ),
  step(
    "payments.create",
    "unknown_provider",
    422,
    "A provider that is not one of your connections",
    () => post("/v1/payments", { amount: 2500, currency: "EUR", provider: "no_such_connection", payment_method: card("tok_visa") }, "order-1006")
  ),
  step(
    "payments.create",
    "usd_routed",
    201,
    "A USD payment, sent to the backup sandbox by the routing rule",
    () => post("/v1/payments", { amount: 4200, currency: "USD", payment_method: card("tok_mastercard") }, "order-1007")
  ),
  step(
    "payments.create",
    "authorized",
    201,
    "Authorize now, capture later (capture: false)",
    () => post("/v1/payments", { amount: 5000, currency: "EUR", capture: false, payment_method: card("tok_visa") }, "order-1008"),
    {
      saveAs: "authorized"
    }
  ),
  step(
    "payments.capture",
    "partial",
    200,
    "Capture part of an authorization",
    (saved) => post(`/v1/payments/${saved("authorized").id}/capture`, { amount: 4000 }, "capture-1008")
  ),
  step(
    "payments.capture",
    "already_captured",
    409,
    "A payment that is not waiting for capture",
    (saved) => post(`/v1/payments/${saved("paid").id}/capture`, null, "capture-1001")
  ),
  step(
    "payments.create",
    "authorized_2",
    201,
    "Another authorization",
    () => post("/v1/payments", { amount: 3000, currency: "EUR", capture: false, payment_method: card("tok_visa") }, "order-1009"),
    {
      saveAs: "authorized2",
      hidden: true
    }
  ),
  step(
    "payments.capture",
    "amount_too_large",
    422,
    "More than was authorized",
    (saved) => post(`/v1/payments/${saved("authorized2").id}/capture`, { amount: 3001 }, "capture-1009-too-much")
  ),
  step(
    "providers.update",
    "outage",
    200,
    "Fault injection: the sandbox answers as if unreachable",
    (saved) => patch(`/v1/provider-connections/${sandboxA(saved)}`, { settings: { outage: true } })
  ),
  step(
    "payments.capture",
    "provider_unavailable",
    502,
    "The PSP could not be reached; nothing changed",
    (saved) => post(`/v1/payments/${saved("authorized2").id}/capture`, null, "capture-1009")
  ),
  step(
    "payments.cancel",
    "provider_unavailable",
    502,
    "The PSP could not be reached; nothing changed",
    (saved) => post(`/v1/payments/${saved("authorized2").id}/cancel`, null, "cancel-1009-outage")
  ),
  step("providers.update", "recovered", 200, "Fault injection off again", (saved) => patch(`/v1/provider-connections/${sandboxA(saved)}`, { settings: {} })),
  step("payments.cancel", "canceled", 200, "Release an authorization", (saved) => post(`/v1/payments/${saved("authorized2").id}/cancel`, null, "cancel-1009")),
  step(
    "payments.cancel",
    "not_cancelable",
    409,
    "A succeeded payment cannot be canceled (refund it)",
    (saved) => post(`/v1/payments/${saved("paid").id}/cancel`, null, "cancel-1001")
  ),
  step("payments.retrieve", "succeeded", 200, "A payment", (saved) => get(`/v1/payments/${saved("paid").id}`)),
  step("payments.list", "recent", 200, "The latest payments, newest first", () => get("/v1/payments", { limit: "2" })),
  step("payments.list", "failed", 200, "Failed payments only", () => get("/v1/payments", { status: "failed", limit: "5" })),
  step(
    "payments.list",
    "in_order_made",
    200,
    "The latest payments in the order they were made, whatever time a test clock gave them",
    () => get("/v1/payments", { order_by: "id", limit: "2" })
  ),
  step(
    "insights.paymentTimeline",
    "timeline",
    200,
    "Everything that happened to a payment, in order",
    (saved) => get(`/v1/payments/${saved("paid").id}/timeline`)
  ),
  step("insights.insights", "last_day", 200, "Success rates and latency per provider, last 24 hours", () => get("/v1/insights", { hours: "24" })),
  step("insights.insights", "invalid_hours", 400, "hours is a whole number of hours, at most a week", () => get("/v1/insights", { hours: "1000" })),
  step(
    "paymentReturn.return",
    "completed",
    303,
    "The customer is back from 3D Secure: the payment settles and the customer goes on to your return_url",
    (saved, token) => ({ method: "GET", path: `/v1/payments/${saved("threeDs").id}/return`, query: { token: token ?? "" }, auth: "none" }),
    { prepare: (saved) => ({ completeChallenge: saved("threeDs").next_action.url }) }
  ),
  step("paymentReturn.return", "bad_token", 404, "Without the token signed for this payment, there is no such page", (saved) => ({
    method: "GET",
    path: `/v1/payments/${saved("paid").id}/return`,
    query: { token: "not-the-token" },
    auth: "none"
  }))
]

/** Refunds, in part and of what is left, and when they are refused. */
export const refundSteps: ReadonlyArray<ScenarioStep> = [
  step(
    "refunds.create",
    "partial",
    201,
    "Refund part of a payment",
    (saved) => post(`/v1/payments/${saved("paid").id}/refund`, { amount: 1500, reason: "requested_by_customer" }, "refund-1001-a"),
    { saveAs: "refund" }
  ),
  step(
    "refunds.create",
    "amount_too_large",
    422,
    "More than is left to refund",
    (saved) => post(`/v1/payments/${saved("paid").id}/refund`, { amount: 5000 }, "refund-1001-too-much")
  ),
  step("refunds.create", "rest", 201, "Refund whatever is left (no amount)", (saved) => post(`/v1/payments/${saved("paid").id}/refund`, {}, "refund-1001-b")),
  step("refunds.create", "already_refunded", 409, "Nothing left to refund", (saved) => post(`/v1/payments/${saved("paid").id}/refund`, {}, "refund-1001-c")),
  step(
    "payments.create",
    "refunds_refused",
    201,
    "A payment whose refunds the sandbox refuses (tok_refundFail)",
    () => post("/v1/payments", { amount: 1800, currency: "EUR", payment_method: card("tok_refundFail") }, "order-1010"),
    { saveAs: "refuseRefunds" }
  ),
  step("refunds.create", "refused", 402, "The PSP refused the refund", (saved) => post(`/v1/payments/${saved("refuseRefunds").id}/refund`, {}, "refund-1010")),
  step("refunds.retrieve", "refund", 200, "A refund", (saved) => get(`/v1/refunds/${saved("refund").id}`)),
  step("refunds.list", "of_payment", 200, "The refunds of one payment", (saved) => get("/v1/refunds", { payment_id: saved("paid").id }))
]
