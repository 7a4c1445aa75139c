import { EventLog } from "../events/EventLog.js"
import { Context, Effect, Layer } from "effect"
import { type Lifecycle, makeLifecycle } from "../lifecycle/Lifecycle.js"
import { CheckoutSessionRecord, type CheckoutSessionStatus, toEventObject } from "./CheckoutSession.js"
import { CheckoutSessionNotFound } from "./CheckoutErrors.js"
import { CheckoutSessionsRepository } from "./CheckoutSessionsRepository.js"
import { CheckoutSessionStateMachine } from "./CheckoutSessionStateMachine.js"

/** Where a checkout session's status changes: its lifecycle over the sessions repository. */
export class CheckoutRecords extends Context.Tag("core/CheckoutRecords")<
  CheckoutRecords,
  Lifecycle<CheckoutSessionStatus, CheckoutSessionRecord, CheckoutSessionNotFound>
>() {
  static readonly layer = Layer.effect(
    CheckoutRecords,
    Effect.flatMap(CheckoutSessionsRepository, (store) =>
      makeLifecycle({
        machine: CheckoutSessionStateMachine,
        store,
        make: (fields) => new CheckoutSessionRecord(fields),
        event: (type, session) => Effect.succeed({ type, object: toEventObject(session) }),
        notFound: (id) => new CheckoutSessionNotFound({ id })
      }))
  ).pipe(Layer.provide(EventLog.layer))
}
