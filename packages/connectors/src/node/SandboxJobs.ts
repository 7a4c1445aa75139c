import { ConnectionSecrets, ExtraJobs, ownOriginAccess, ProviderConnectionsRepository, PublicUrls } from "@orchestrator/core"
import { makeEgressClient } from "@orchestrator/egress"
import { Effect, Layer, Option } from "effect"
import { SandboxLedger } from "../sandbox/SandboxLedger.js"
import { sandboxNotifierJob } from "../sandbox/SandboxNotifications.js"
import { sandboxSubscriptionsJob } from "../sandbox/SandboxSubscriptions.js"

/**
 * The sandbox PSP's webhooks go back to this service at its public address, which is usually
 * private (localhost in development, an internal name behind a proxy): that one origin is reached
 * through the egress client like any call (no redirect, 10 s, the answer's first KiB), whatever
 * the operator's setting for merchants' URLs, since the operator chose it. The status, if any came.
 */
const postToOwnOrigin = (baseUrl: string) => {
  const egress = makeEgressClient()
  const access = ownOriginAccess(baseUrl)
  return {
    close: egress.close,
    post: (url: string, body: Uint8Array, headers: Record<string, string>) =>
      egress.send({ method: "POST", url, headers, body, access, deadlineMs: 10_000, answerLimit: { bytes: 1024, beyond: "truncate" } }).pipe(
        Effect.map((answer) => Option.some(answer.status)),
        Effect.orElseSucceed(() => Option.none<number>())
      )
  }
}

/**
 * The sandbox PSP's own background work (settling refunds, renewing its subscriptions, sending its
 * webhooks), signed with each connection's webhook secret, which it opens as the core does.
 */
export const SandboxJobs = Layer.scoped(
  ExtraJobs,
  Effect.gen(function*() {
    const ledger = yield* SandboxLedger
    const connections = yield* ProviderConnectionsRepository
    const secrets = yield* ConnectionSecrets
    const urls = yield* PublicUrls
    const { post, close } = postToOwnOrigin(urls.base)
    yield* Effect.addFinalizer(() => Effect.sync(close))
    return [
      sandboxSubscriptionsJob(ledger),
      sandboxNotifierJob({
        ledger,
        webhookUrl: urls.providerWebhook,
        post,
        webhookSecret: (connectionId) =>
          Effect.flatMap(
            connections.findOwned(connectionId),
            Option.match({
              onNone: () => Effect.succeed(Option.none()),
              onSome: ({ connection }) => Effect.option(secrets.webhookSecret(connection))
            })
          )
      })
    ]
  })
).pipe(Layer.provide(ConnectionSecrets.layer))
