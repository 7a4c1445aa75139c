import type { Currency } from "@orchestrator/core"
import { connectorContract, type ContractRig, fakeTemplate, type OpenApiContract } from "@orchestrator/testing"
import { Effect, Schema } from "effect"
import { makeTemplateConnector } from "../src/template/Connector.js"
import { TemplateSettings } from "../src/template/Settings.js"
import { fetchHttp, pspContext } from "./pspFixtures.js"

const WEBHOOK_SECRET = "whsec_template_contract"
/** The PSP's test payment methods for each scenario (its testing guide). */
const METHODS = { approved: "tok_approved", declined: "tok_declined", redirect: "tok_redirect" } as const

/**
 * The PSP's published document, once it is in `packages/testing/psp-documents` and has its
 * `OpenApiContract.template()`: until then every run reports the missing document.
 */
const templateDocument = (): OpenApiContract | undefined => undefined

connectorContract({
  name: "Template",
  start: Effect.gen(function*() {
    const fake = yield* fakeTemplate
    const http = yield* fetchHttp
    const connector = makeTemplateConnector(
      http,
      pspContext({ type: "template", baseUrl: fake.url, credentials: { secret_key: "sk_test_contract" }, webhookSecret: WEBHOOK_SECRET }),
      Schema.decodeUnknownSync(TemplateSettings)({ timeout_ms: 5_000 })
    )
    const paymentOf = (reference: string) => [...fake.payments.values()].find((payment) => payment.reference === reference)
    const document = templateDocument()
    const rig: ContractRig = {
      connector,
      method: (outcome) => ({ type: "card", token: METHODS[outcome] }),
      declineCode: "card_declined",
      completeRedirect: (url) => Effect.promise(() => fetch(url, { redirect: "manual" }).then((answer) => answer.text())).pipe(Effect.asVoid),
      manualCapture: true,
      dropNextAnswer: fake.dropNextAnswer,
      paymentsFor: fake.paymentsFor,
      // In ISO 4217 minor units for these currencies; convert here if the PSP's wire units differ.
      recordedAmount: (reference) => paymentOf(reference)?.amount ?? null,
      paymentWebhook: (id, { forged }) =>
        Effect.sync(() => {
          const { body, headers } = fake.signedWebhook(id, forged ? "whsec_not_ours" : WEBHOOK_SECRET)
          return { body: new TextEncoder().encode(body), headers }
        }),
      violations: () =>
        document === undefined
          ? ["no published document yet: add it to packages/testing/psp-documents and OpenApiContract"]
          : fake.exchanges.flatMap((exchange) =>
            [...document.checkRequest(exchange), ...document.checkResponse(exchange)].map((problem) => `${exchange.method} ${exchange.url}: ${problem}`)
          ),
      currencies: ["EUR", "JPY", "KWD"].map((code) => code as Currency)
    }
    return rig
  }).pipe(Effect.orDie)
})
