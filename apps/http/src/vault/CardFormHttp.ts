import { HttpApiBuilder } from "@effect/platform"
import { answering, Api } from "@orchestrator/api"
import { CardVault, CurrentTenant } from "@orchestrator/core"
import { Effect } from "effect"

/** `POST /v1/card_form/payment_methods`: a card typed into the service's card form, vaulted without the raw-card gate. */
export const CardFormHttpLive = HttpApiBuilder.group(Api, "cardForm", (handlers) =>
  Effect.gen(function*() {
    const vault = yield* CardVault
    return handlers.handle("tokenize", ({ payload }) =>
      Effect.flatMap(CurrentTenant, (tenant) =>
        answering(
          // The gate is the raw API's alone: the form's channel never meets it.
          vault.tokenize(tenant, payload, "card_form").pipe(Effect.catchTag("RawCardDataDisabled", Effect.die))
        )))
  }))
