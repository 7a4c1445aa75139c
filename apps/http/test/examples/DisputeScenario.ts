import { get, patch, post, sandboxA, type ScenarioStep, step } from "./ScenarioStep.js"

const disputedPayment = (key: string, amount: number) => () =>
  post("/v1/payments", { amount, currency: "EUR", payment_method: { type: "card", token: "tok_createDispute" } }, key)

/**
 * Disputes the sandbox opens (`tok_createDispute`): listed, answered with evidence (which the sandbox
 * decides by its text: `winning_evidence`), or accepted. The worker sends and applies the sandbox's
 * webhooks before each `disputes.` step (`workerCatchesUp`).
 */
export const disputeSteps: ReadonlyArray<ScenarioStep> = [
  step("payments.create", "disputed", 201, "A payment its customer disputes at once (tok_createDispute)", disputedPayment("order-2001", 4500), {
    saveAs: "disputedPayment",
    hidden: true
  }),
  step("disputes.list", "needs_response", 200, "Disputes waiting for your answer", () => get("/v1/disputes", { status: "needs_response" }), {
    saveAs: "disputes"
  }),
  step(
    "refunds.create",
    "disputed",
    409,
    "What a dispute holds back cannot be refunded",
    (saved) => post(`/v1/payments/${saved("disputedPayment").id}/refund`, {}, "refund-2001")
  ),
  step("disputes.retrieve", "dispute", 200, "A dispute", (saved) => get(`/v1/disputes/${saved("disputes").data[0].id}`)),
  step("disputes.evidence", "draft", 200, "Save evidence (a draft until submitted)", (saved) =>
    post(`/v1/disputes/${saved("disputes").data[0].id}/evidence`, {
      product_description: "Merino wool socks, 3 pairs",
      customer_email: "jane@example.com",
      shipping_carrier: "DHL",
      shipping_tracking_number: "JD014600003828245032",
      uncategorized_text: "winning_evidence"
    }, "dispute-2001-evidence")),
  step(
    "disputes.submit",
    "submitted",
    200,
    "Submit the evidence to the provider",
    (saved) => post(`/v1/disputes/${saved("disputes").data[0].id}/submit`, null, "dispute-2001-submit")
  ),
  step(
    "disputes.evidence",
    "already_submitted",
    409,
    "Evidence already submitted cannot change",
    (saved) => post(`/v1/disputes/${saved("disputes").data[0].id}/evidence`, { receipt: "Order 1011" }, "dispute-2001-evidence-late")
  ),
  step("disputes.retrieve", "won", 200, "A dispute won", (saved) => get(`/v1/disputes/${saved("disputes").data[0].id}`)),
  step("payments.create", "disputed_2", 201, "Another disputed payment", disputedPayment("order-2002", 1200), { saveAs: "disputedPayment2", hidden: true }),
  step("disputes.list", "of_payment", 200, "The disputes of one payment", (saved) => get("/v1/disputes", { payment_id: saved("disputedPayment2").id }), {
    saveAs: "disputes2"
  }),
  step(
    "providers.update",
    "outage_again",
    200,
    "Fault injection: the sandbox answers as if unreachable",
    (saved) => patch(`/v1/provider-connections/${sandboxA(saved)}`, { settings: { outage: true } })
  ),
  step(
    "disputes.accept",
    "provider_unavailable",
    502,
    "The PSP could not be reached; the dispute is unchanged",
    (saved) => post(`/v1/disputes/${saved("disputes2").data[0].id}/accept`, null, "dispute-2002-accept-outage")
  ),
  step(
    "disputes.submit",
    "provider_unavailable",
    502,
    "The PSP could not be reached; the dispute is unchanged",
    (saved) => post(`/v1/disputes/${saved("disputes2").data[0].id}/submit`, null, "dispute-2002-submit-outage")
  ),
  step(
    "providers.update",
    "recovered_again",
    200,
    "Fault injection off again",
    (saved) => patch(`/v1/provider-connections/${sandboxA(saved)}`, { settings: {} })
  ),
  step(
    "disputes.accept",
    "accepted",
    200,
    "Accept a dispute (do not contest it)",
    (saved) => post(`/v1/disputes/${saved("disputes2").data[0].id}/accept`, null, "dispute-2002-accept")
  ),
  step(
    "disputes.accept",
    "closed",
    409,
    "A closed dispute takes no answer",
    (saved) => post(`/v1/disputes/${saved("disputes2").data[0].id}/accept`, null, "dispute-2002-accept-again")
  )
]
