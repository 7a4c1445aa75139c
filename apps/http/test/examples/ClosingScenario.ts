import { del, patch, post, sandboxA, type ScenarioStep, step } from "./ScenarioStep.js"

const card = (token: string) => ({ type: "card", token })

/** What is left at the end: deleting what the setup made, and the health checks. */
export const closingSteps: ReadonlyArray<ScenarioStep> = [
  step("routing.delete", "deleted", 200, "Delete a routing rule", (saved) => del(`/v1/routing-rules/${saved("rule").id}`)),
  step("providers.delete", "deleted", 200, "Delete a connection", (saved) => del(`/v1/provider-connections/${saved("backup").id}`)),
  step("providerWebhooks.receive", "unsigned", 400, "A PSP's webhook without a valid signature is refused", (saved) => ({
    method: "POST",
    path: `/v1/provider-webhooks/${saved("connections").data[0].id}`,
    body: { id: "evt_sandbox_1", type: "charge.updated" },
    auth: "none"
  })),
  step(
    "providers.delete",
    "default_provider",
    409,
    "The organization's default provider cannot be deleted",
    (saved) => del(`/v1/provider-connections/${saved("connections").data.find((c: { name: string }) => c.name === "sandbox_a").id}`)
  ),
  // Last, because nothing after may need the sandbox: failed calls in a row open its circuit (provider_connection.error).
  step(
    "providers.update",
    "outage_again",
    200,
    "The sandbox down again",
    (saved) => patch(`/v1/provider-connections/${sandboxA(saved)}`, { settings: { outage: true } }, "sandbox-down"),
    { hidden: true }
  ),
  ...[1, 2, 3].map((attempt) =>
    step(
      "payments.create",
      attempt === 1 ? "provider_unavailable" : `provider_unavailable_${attempt}`,
      402,
      "The PSP could not be reached, and no other connection can take the payment: it failed",
      () => post("/v1/payments", { amount: 2500, currency: "EUR", payment_method: card("tok_visa") }, `order-30${attempt}`),
      attempt === 1 ? {} : { hidden: true }
    )
  ),
  step(
    "payments.create",
    "no_provider_available",
    422,
    "Every connection that could take the payment is in error (its circuit is open)",
    () => post("/v1/payments", { amount: 2500, currency: "EUR", payment_method: card("tok_visa") }, "order-304")
  ),
  step("health.healthz", "alive", 200, "The process is alive", () => ({ method: "GET", path: "/healthz", auth: "none" })),
  step("health.readyz", "ready", 200, "The database answers: ready for traffic", () => ({ method: "GET", path: "/readyz", auth: "none" }))
]
