import { HttpApp, HttpRouter } from "@effect/platform"
import { ConnectorOutcomeUnknown, type Currency, makeId, type PaymentConnector, SIGNATURE_HEADER } from "@orchestrator/core"
import { connectorContract, type ContractRig } from "@orchestrator/testing"
import { Clock, Duration, Effect, Option, Redacted } from "effect"
import { SandboxChallengeRoutes } from "../src/sandbox/SandboxChallenge.js"
import { SandboxLedger } from "../src/sandbox/SandboxLedger.js"
import { chargeObject, signSandboxWebhook } from "../src/sandbox/SandboxWebhooks.js"
import { BASE_URL, makeConnection, sandboxConnector, WEBHOOK_SECRET } from "./fixtures.js"

/** The service's own bound on a PSP call (`PaymentPolicy.callTimeout`): the sandbox has no transport that times out. */
const CALL_TIMEOUT_MS = 30_000

/** The sandbox's test tokens. */
const TOKENS = { approved: "tok_visa", declined: "tok_chargeDeclined", redirect: "tok_threeDSecureRequired" } as const

connectorContract({
  name: "Sandbox",
  start: Effect.gen(function*() {
    const ledger = yield* Effect.provide(SandboxLedger, SandboxLedger.layerMemory)
    const connection = makeConnection()
    const prompt = sandboxConnector(ledger, connection)
    // The same books behind a connector whose answers come a minute late (the most a connection may
    // ask for, past every deadline): the sandbox acts, then waits.
    const late = sandboxConnector(ledger, makeConnection({ latency_ms: 60_000 }, connection.id))
    let dropNext = false
    const authorize: PaymentConnector["authorize"] = (request) => {
      const used = dropNext ? late : prompt
      dropNext = false
      // As the service bounds every call (ProviderCall), the answer that does not come in time is unknown.
      return used.authorize(request).pipe(
        Effect.timeoutFail({
          duration: Duration.millis(CALL_TIMEOUT_MS),
          onTimeout: () => new ConnectorOutcomeUnknown({ reason: `no answer within ${CALL_TIMEOUT_MS} ms`, timedOut: true })
        })
      )
    }
    const challenge = HttpApp.toWebHandler(SandboxChallengeRoutes.pipe(HttpRouter.provideService(SandboxLedger, ledger)))
    const chargeByReference = (reference: string) => Option.getOrUndefined(Effect.runSync(ledger.findChargeByReference(connection.id, reference)))
    const rig: ContractRig = {
      connector: { ...prompt, authorize, deadlineMs: CALL_TIMEOUT_MS },
      method: (outcome) => ({ type: "card", token: TOKENS[outcome] }),
      declineCode: "card_declined",
      // The customer opens the challenge page and presses its "Complete" button (the form's action).
      completeRedirect: (url) =>
        Effect.promise(async () => {
          const page = await (await challenge(new Request(url))).text()
          const action = /action="([^"]+\/complete)"/.exec(page)?.[1]
          if (action === undefined) throw new Error(`no Complete button on ${url}`)
          await challenge(new Request(`${BASE_URL}${action}`, { method: "POST", body: "", headers: { "content-type": "application/x-www-form-urlencoded" } }))
        }),
      manualCapture: true,
      dropNextAnswer: () => {
        dropNext = true
      },
      paymentsFor: (reference) => (chargeByReference(reference) === undefined ? 0 : 1),
      recordedAmount: (reference) => chargeByReference(reference)?.amount ?? null,
      paymentWebhook: (id, { forged }) =>
        Effect.gen(function*() {
          const charge = Option.getOrThrow(yield* ledger.findCharge(id))
          const millis = yield* Clock.currentTimeMillis
          const webhook = {
            id: makeId("sbev", millis),
            created: Math.floor(millis / 1000),
            type: "charge.updated" as const,
            data: { charge: chargeObject(charge) }
          }
          const { body, signature } = yield* signSandboxWebhook(webhook, Redacted.make(forged ? "whsec_not_ours" : WEBHOOK_SECRET))
          return { body, headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signature } }
        }),
      // The sandbox publishes no API document: there is nothing on a wire to hold against one.
      violations: () => [],
      currencies: ["EUR", "JPY", "KWD"].map((code) => code as Currency)
    }
    return rig
  })
})
