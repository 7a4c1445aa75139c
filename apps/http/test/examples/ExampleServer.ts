import { Organizations, PublicUrls } from "@orchestrator/core"
import { testDatabases } from "@orchestrator/testing/node"
import { Effect } from "effect"
import { runJobs, serverLayer } from "../support/TestServer.js"
import type { Keys } from "./ExampleRequests.js"

/** Requests a second a live key may make where examples are recorded and replayed: low, to show the 429. */
export const LIVE_RATE_LIMIT = 2

/** A fresh service on an embedded database, as the recording and the replay both use it. */
export const exampleServer = () =>
  serverLayer(testDatabases().find((database) => database.name === "pglite")!.layer, {
    rateLimits: { live: LIVE_RATE_LIMIT, test: 1_000_000 },
    // The shop may send raw card data (the operator's ORCHESTRATOR_VAULT_RAW_CARD_ORGANIZATIONS), to show the vault.
    rawCardData: () => true
  })

/**
 * The shop the examples are recorded for, "Acme Shop" (its name is what its checkout sessions show
 * shoppers), with a test key (every example but one) and a live key (the 429).
 */
export const exampleMerchant = Effect.gen(function*() {
  const organizations = yield* Organizations
  const organization = yield* organizations.create("Acme Shop")
  const test = yield* organizations.createKey(organization.id, false)
  const live = yield* organizations.createKey(organization.id, true)
  return { baseUrl: (yield* PublicUrls).base, keys: { test: test.secret, live: live.secret } satisfies Keys }
})

/**
 * What the worker would have done by the time a merchant asks about deliveries (events fanned out to
 * endpoints) or disputes (the sandbox's webhooks applied). Only then, so a replay stays quick (the same operations in the recording and the replay).
 */
export const workerCatchesUp = (operationId: string) =>
  operationId.startsWith("webhooks.") && operationId.includes("Deliver")
    ? runJobs("dispatch-events")
    // A dispute is the PSP's news: the sandbox's webhooks sent and applied.
    : operationId.startsWith("disputes.")
    ? runJobs("sandbox-notifications", "apply-provider-events")
    : Effect.void
