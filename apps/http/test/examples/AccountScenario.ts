import { cardFormSteps } from "./PaymentMethodScenario.js"
import { del, get, patch, post, type ScenarioStep, step } from "./ScenarioStep.js"

const card = (token: string) => ({ type: "card", token })

/** Webhook endpoints, the deliveries the payments before them made, and the events. */
export const webhookSteps: ReadonlyArray<ScenarioStep> = [
  step("webhooks.createEndpoint", "endpoint", 201, "Register an endpoint; its secret is in this answer only", () =>
    post("/v1/webhooks/endpoints", {
      url: "https://shop.example/webhooks",
      enabled_events: ["payment.succeeded", "payment.failed", "refund.succeeded"],
      description: "Order fulfilment"
    }, "endpoint-shop"), { saveAs: "endpoint" }),
  step(
    "webhooks.createEndpoint",
    "invalid_url",
    400,
    "The URL must be http(s)",
    () => post("/v1/webhooks/endpoints", { url: "ftp://shop.example/webhooks" }, "endpoint-ftp")
  ),
  step(
    "payments.create",
    "webhook_trigger",
    201,
    "A payment after the endpoint exists: its events are delivered there",
    () => post("/v1/payments", { amount: 1200, currency: "EUR", payment_method: card("tok_visa") }, "order-1011"),
    { saveAs: "delivered", hidden: true }
  ),
  step("webhooks.listEndpoints", "endpoints", 200, "The endpoints", () => get("/v1/webhooks/endpoints")),
  step(
    "webhooks.retrieveEndpoint",
    "endpoint",
    200,
    "One endpoint (its secret is not shown again)",
    (saved) => get(`/v1/webhooks/endpoints/${saved("endpoint").id}`)
  ),
  step(
    "webhooks.updateEndpoint",
    "events",
    200,
    "Change which events an endpoint receives",
    (saved) => patch(`/v1/webhooks/endpoints/${saved("endpoint").id}`, { enabled_events: ["*"] }, "endpoint-shop-all-events")
  ),
  step(
    "webhooks.rotateSecret",
    "rotated",
    200,
    "A new secret; the old one keeps signing for 24 hours",
    (saved) => post(`/v1/webhooks/endpoints/${saved("endpoint").id}/rotate-secret`, undefined, "rotate-shop")
  ),
  step(
    "webhooks.listDeliveries",
    "deliveries",
    200,
    "Deliveries to an endpoint, newest first",
    (saved) => get("/v1/webhooks/deliveries", { endpoint_id: saved("endpoint").id, limit: "3" }),
    { saveAs: "deliveries" }
  ),
  step(
    "webhooks.retrieveDelivery",
    "delivery",
    200,
    "One delivery with its attempts",
    (saved) => get(`/v1/webhooks/deliveries/${saved("deliveries").data[0].id}`)
  ),
  step(
    "webhooks.resendDelivery",
    "resent",
    200,
    "Send a delivery again",
    (saved) => post(`/v1/webhooks/deliveries/${saved("deliveries").data[0].id}/resend`, undefined, "resend-one")
  ),
  step(
    "webhooks.resendDeliveries",
    "by_endpoint",
    200,
    "Send again every pending delivery of an endpoint",
    (saved) => post("/v1/webhooks/deliveries/resend", { endpoint_id: saved("endpoint").id, status: "pending" }, "resend-shop")
  ),
  step(
    "webhooks.resendDeliveries",
    "key_reused",
    422,
    "The Idempotency-Key of an earlier request, with another request",
    (saved) => post("/v1/webhooks/deliveries/resend", { endpoint_id: saved("endpoint").id, status: "exhausted" }, "resend-shop")
  ),
  step(
    "webhooks.createEndpoint",
    "temporary",
    201,
    "An endpoint to delete",
    () => post("/v1/webhooks/endpoints", { url: "https://staging.shop.example/webhooks" }, "endpoint-staging"),
    { saveAs: "staging", hidden: true }
  ),
  step("webhooks.deleteEndpoint", "deleted", 200, "Delete an endpoint", (saved) => del(`/v1/webhooks/endpoints/${saved("staging").id}`)),
  step("events.list", "payment_succeeded", 200, "Events of one type, newest first", () => get("/v1/events", { type: "payment.succeeded", limit: "2" }), {
    saveAs: "events"
  }),
  step("events.retrieve", "event", 200, "One event", (saved) => get(`/v1/events/${saved("events").data[0].id}`))
]

/** Customers, plans and subscriptions on a test clock, billed by advancing it. */
export const billingSteps: ReadonlyArray<ScenarioStep> = [
  step(
    "testClocks.create",
    "clock",
    201,
    "A test clock: subscriptions of its customers bill on its time",
    () => post("/v1/test_helpers/test_clocks", { frozen_time: "2030-01-31T12:00:00.000Z", name: "Monthly renewal" }, "clock-1"),
    { saveAs: "clock" }
  ),
  step(
    "testClocks.create",
    "key_reused",
    422,
    "The Idempotency-Key of an earlier request, with another request",
    () => post("/v1/test_helpers/test_clocks", { frozen_time: "2030-02-28T12:00:00.000Z", name: "Monthly renewal" }, "clock-1")
  ),
  step("testClocks.list", "clocks", 200, "The test clocks", () => get("/v1/test_helpers/test_clocks")),
  step("testClocks.retrieve", "clock", 200, "A test clock", (saved) => get(`/v1/test_helpers/test_clocks/${saved("clock").id}`)),
  step(
    "customers.create",
    "customer",
    201,
    "A customer, on the test clock",
    (saved) => post("/v1/customers", { email: "jane@example.com", name: "Jane Doe", test_clock: saved("clock").id }, "customer-jane"),
    { saveAs: "customer" }
  ),
  step("customers.list", "by_email", 200, "Customers by email", () => get("/v1/customers", { email: "jane@example.com" })),
  step("customers.retrieve", "customer", 200, "A customer", (saved) => get(`/v1/customers/${saved("customer").id}`)),
  step(
    "plans.create",
    "monthly",
    201,
    "A monthly plan",
    () => post("/v1/plans", { amount: 1500, currency: "EUR", interval: "month", metadata: { tier: "pro" } }, "plan-pro"),
    { saveAs: "plan" }
  ),
  step(
    "plans.create",
    "bad_interval",
    400,
    "The interval is day, week, month or year",
    () => post("/v1/plans", { amount: 1500, currency: "EUR", interval: "fortnight" }, "plan-bad")
  ),
  step("plans.list", "plans", 200, "The plans", () => get("/v1/plans")),
  step("plans.retrieve", "plan", 200, "A plan", (saved) => get(`/v1/plans/${saved("plan").id}`)),
  step(
    "subscriptions.create",
    "active",
    201,
    "Subscribe a customer: the first invoice is charged now",
    (saved) => post("/v1/subscriptions", { customer: saved("customer").id, plan: saved("plan").id, payment_method: "tok_visa" }, "subscribe-jane"),
    {
      saveAs: "subscription"
    }
  ),
  step(
    "subscriptions.create",
    "declined",
    402,
    "The first charge is declined",
    (saved) => post("/v1/subscriptions", { customer: saved("customer").id, plan: saved("plan").id, payment_method: "tok_chargeDeclined" }, "subscribe-declined")
  ),
  step("subscriptions.list", "of_customer", 200, "A customer's subscriptions", (saved) => get("/v1/subscriptions", { customer: saved("customer").id })),
  step("subscriptions.retrieve", "subscription", 200, "A subscription", (saved) => get(`/v1/subscriptions/${saved("subscription").id}`)),
  step(
    "subscriptions.update",
    "metadata",
    200,
    "Change a subscription's metadata",
    (saved) => post(`/v1/subscriptions/${saved("subscription").id}`, { metadata: { seats: "5" } }, "subscription-seats")
  ),
  step(
    "testClocks.advance",
    "next_month",
    200,
    "Advance the clock a month: the renewal is billed",
    (saved) => post(`/v1/test_helpers/test_clocks/${saved("clock").id}/advance`, { frozen_time: "2030-03-01T12:00:00.000Z" }, "advance-1")
  ),
  step(
    "testClocks.advance",
    "backwards",
    422,
    "A test clock only moves forward",
    (saved) => post(`/v1/test_helpers/test_clocks/${saved("clock").id}/advance`, { frozen_time: "2029-01-01T00:00:00.000Z" }, "advance-back")
  ),
  step(
    "invoices.list",
    "of_subscription",
    200,
    "A subscription's invoices, newest first",
    (saved) => get("/v1/invoices", { subscription: saved("subscription").id }),
    { saveAs: "invoices" }
  ),
  step("invoices.retrieve", "paid", 200, "An invoice", (saved) => get(`/v1/invoices/${saved("invoices").data[0].id}`)),
  step(
    "subscriptions.cancel",
    "now",
    200,
    "Cancel now",
    (saved) => post(`/v1/subscriptions/${saved("subscription").id}/cancel`, { at_period_end: false }, "cancel-jane")
  ),
  step(
    "subscriptions.cancel",
    "already_canceled",
    409,
    "A canceled subscription stays canceled",
    (saved) => post(`/v1/subscriptions/${saved("subscription").id}/cancel`, { at_period_end: false }, "cancel-jane-again")
  ),
  step(
    "testClocks.create",
    "dunning",
    201,
    "A clock for a customer whose renewals fail",
    () => post("/v1/test_helpers/test_clocks", { frozen_time: "2030-01-31T12:00:00.000Z", name: "Dunning" }, "clock-dunning"),
    { saveAs: "dunningClock", hidden: true }
  ),
  step(
    "customers.create",
    "dunning",
    201,
    "A customer on that clock",
    (saved) => post("/v1/customers", { email: "sam@example.com", test_clock: saved("dunningClock").id }, "customer-sam"),
    { saveAs: "dunningCustomer", hidden: true }
  ),
  step(
    "subscriptions.create",
    "dunning",
    201,
    "A subscription whose first charge succeeds",
    (saved) => post("/v1/subscriptions", { customer: saved("dunningCustomer").id, plan: saved("plan").id, payment_method: "tok_visa" }, "subscribe-sam"),
    {
      saveAs: "dunningSubscription"
    }
  ),
  step(
    "subscriptions.update",
    "payment_method",
    200,
    "Change the card renewals are charged to",
    (saved) => post(`/v1/subscriptions/${saved("dunningSubscription").id}`, { payment_method: "tok_chargeDeclined" }, "subscription-sam-card")
  ),
  step(
    "testClocks.advance",
    "renewal_declined",
    200,
    "The renewal is declined: the subscription is past_due and retried",
    (saved) => post(`/v1/test_helpers/test_clocks/${saved("dunningClock").id}/advance`, { frozen_time: "2030-03-01T12:00:00.000Z" }, "advance-sam-1")
  ),
  step(
    "subscriptions.retrieve",
    "past_due",
    200,
    "A subscription whose renewal failed",
    (saved) => get(`/v1/subscriptions/${saved("dunningSubscription").id}`)
  ),
  step(
    "testClocks.advance",
    "retries_spent",
    200,
    "Every retry failed: the subscription is unpaid",
    (saved) => post(`/v1/test_helpers/test_clocks/${saved("dunningClock").id}/advance`, { frozen_time: "2030-03-15T12:00:00.000Z" }, "advance-sam-2")
  ),
  step(
    "subscriptions.retrieve",
    "unpaid",
    200,
    "A subscription whose retries are spent",
    (saved) => get(`/v1/subscriptions/${saved("dunningSubscription").id}`)
  ),
  step(
    "testClocks.create",
    "temporary",
    201,
    "A test clock to delete",
    () => post("/v1/test_helpers/test_clocks", { frozen_time: "2030-06-01T00:00:00.000Z" }, "clock-2"),
    { saveAs: "clock2", hidden: true }
  ),
  step("testClocks.delete", "deleted", 200, "Delete a test clock", (saved) => del(`/v1/test_helpers/test_clocks/${saved("clock2").id}`))
]

/** Hosted checkout: a session, paid; another, canceled. */
export const checkoutSteps: ReadonlyArray<ScenarioStep> = [
  step("checkoutSessions.create", "session", 201, "A checkout session: send the customer to its url", () =>
    post("/v1/checkout/sessions", {
      amount: 4900,
      currency: "EUR",
      success_url: "https://shop.example/ok",
      cancel_url: "https://shop.example/cart"
    }, "checkout-2001"), { saveAs: "session" }),
  ...cardFormSteps,
  step("checkoutSessions.list", "open", 200, "Open sessions", () => get("/v1/checkout/sessions", { status: "open" })),
  step("checkoutSession.retrieve", "open", 200, "A session", (saved) => get(`/v1/checkout/sessions/${saved("session").id}`)),
  step(
    "checkoutSession.retrieve",
    "unknown_expand",
    400,
    "expand names what can be expanded",
    (saved) => get(`/v1/checkout/sessions/${saved("session").id}`, { expand: "everything" })
  ),
  step(
    "checkoutSession.confirm",
    "declined",
    200,
    "A declined card: the session stays open for another try",
    (saved) => post(`/v1/checkout/sessions/${saved("session").id}/confirm`, { payment_method: card("tok_chargeDeclined") }, "confirm-2001-a")
  ),
  step(
    "checkoutSession.reroute",
    "rerouted",
    200,
    "Try the payment on another provider",
    (saved) => post(`/v1/checkout/sessions/${saved("session").id}/reroute`, { exclude_provider: "sandbox_a" }, "reroute-2001")
  ),
  step(
    "checkoutSession.confirm",
    "paid",
    200,
    "Pay the session with a card",
    (saved) => post(`/v1/checkout/sessions/${saved("session").id}/confirm`, { payment_method: card("tok_visa") }, "confirm-2001-b")
  ),
  step(
    "checkoutSession.cancel",
    "completed",
    409,
    "A paid session cannot be canceled",
    (saved) => post(`/v1/checkout/sessions/${saved("session").id}/cancel`, undefined, "cancel-2001")
  ),
  step(
    "checkoutSessions.create",
    "to_cancel",
    201,
    "Another session",
    () =>
      post(
        "/v1/checkout/sessions",
        { amount: 1500, currency: "EUR", success_url: "https://shop.example/ok", cancel_url: "https://shop.example/cart" },
        "checkout-2002"
      ),
    {
      saveAs: "session2",
      hidden: true
    }
  ),
  step(
    "checkoutSession.cancel",
    "canceled",
    200,
    "Cancel an open session",
    (saved) => post(`/v1/checkout/sessions/${saved("session2").id}/cancel`, undefined, "cancel-2002")
  )
]
