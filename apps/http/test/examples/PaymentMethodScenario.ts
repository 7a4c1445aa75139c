import type { ExampleRequest } from "@orchestrator/api"
import { del, get, post, type Saved, type ScenarioStep, step } from "./ScenarioStep.js"

const card = { number: "4242 4242 4242 4242", exp_month: 12, exp_year: 2030, cvc: "123", holder_name: "Jane Doe" }

/**
 * A card in the vault (the example shop may send raw card data, as the operator allows it with
 * ORCHESTRATOR_VAULT_RAW_CARD_ORGANIZATIONS): vaulted, refused when its number is wrong, charged by
 * its pm_ id, its access log read, deleted and gone.
 */
export const paymentMethodSteps: ReadonlyArray<ScenarioStep> = [
  step("paymentMethods.create", "card", 201, "Vault a card: only its facts come back", () => post("/v1/payment_methods", { type: "card", card }), {
    saveAs: "vaulted"
  }),
  step(
    "paymentMethods.create",
    "invalid_number",
    400,
    "A number whose check digit is wrong",
    () => post("/v1/payment_methods", { type: "card", card: { ...card, number: "4242 4242 4242 4241" } })
  ),
  step("paymentMethods.retrieve", "card", 200, "A vaulted card", (saved) => get(`/v1/payment_methods/${saved("vaulted").id}`)),
  step(
    "payments.create",
    "vaulted_card",
    201,
    "A payment with a vaulted card: any connection that takes raw cards may charge it",
    (saved) => post("/v1/payments", { amount: 3200, currency: "EUR", payment_method: { type: "card", token: saved("vaulted").id } }, "order-3001")
  ),
  step(
    "paymentMethods.accesses",
    "list",
    200,
    "Who opened the card: the payment above, and the connection it went to",
    (saved) => get(`/v1/payment_methods/${saved("vaulted").id}/accesses`)
  ),
  step("paymentMethods.delete", "deleted", 200, "Delete a card: its data is destroyed", (saved) => del(`/v1/payment_methods/${saved("vaulted").id}`)),
  step("paymentMethods.retrieve", "deleted", 404, "A deleted card is gone", (saved) => get(`/v1/payment_methods/${saved("vaulted").id}`))
]

/** As the card form sends it, with the checkout session's client secret (a publishable key works alike). */
const fromCardForm = (saved: Saved, number: string): ExampleRequest => ({
  method: "POST",
  path: "/v1/card_form/payment_methods",
  auth: "none",
  headers: { "service-client-secret": saved("session").client_secret },
  body: { type: "card", card: { ...card, number } }
})

/** The card form's one endpoint, for the checkout session saved as `session`: a card vaulted, one refused. */
export const cardFormSteps: ReadonlyArray<ScenarioStep> = [
  step(
    "cardForm.tokenize",
    "card",
    201,
    "A card typed into the card form: vaulted, no raw-card permission needed",
    (saved) => fromCardForm(saved, "4242 4242 4242 4242")
  ),
  step("cardForm.tokenize", "invalid_number", 400, "Checked as the raw API checks it", (saved) => fromCardForm(saved, "4242 4242 4242 4241")),
  step(
    "cardForm.tokenize",
    "secret_key",
    401,
    "A secret key does not open it: servers vault cards with POST /v1/payment_methods",
    () => post("/v1/card_form/payment_methods", { type: "card", card: { ...card, number: "4242 4242 4242 4242" } })
  )
]
