import { HttpApiBuilder, HttpRouter } from "@effect/platform"
import { Effect } from "effect"
import { SandboxCardFormRoutes } from "./SandboxCardForm.js"
import { SandboxChallengeRoutes } from "./SandboxChallenge.js"
import { SandboxLedger } from "./SandboxLedger.js"

/** The sandbox PSP's own pages (its 3D Secure challenge and card form), for a host to serve beside its API. */
export const SandboxPagesLive = HttpApiBuilder.Router.use((router) =>
  Effect.flatMap(SandboxLedger, (ledger) =>
    Effect.zipRight(
      router.concat(SandboxChallengeRoutes.pipe(HttpRouter.provideService(SandboxLedger, ledger))),
      router.concat(SandboxCardFormRoutes)
    ))
)
