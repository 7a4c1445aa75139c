import { Effect } from "effect"
import { lifecycleLayer, LifecycleTag } from "../lifecycle/Lifecycle.js"
import { CheckoutSessionNotFound } from "./CheckoutErrors.js"
import { CheckoutSessionRecord, type CheckoutSessionStatus, toEventObject } from "./CheckoutSession.js"
import { CheckoutSessionsRepository } from "./CheckoutSessionsRepository.js"
import { CheckoutSessionStateMachine } from "./CheckoutSessionStateMachine.js"

/** Where a checkout session's status changes: its lifecycle over the sessions repository. */
export class CheckoutRecords extends LifecycleTag("core/CheckoutRecords")<
  CheckoutRecords,
  CheckoutSessionStatus,
  CheckoutSessionRecord,
  CheckoutSessionNotFound
>() {
  static readonly layer = lifecycleLayer(CheckoutRecords, CheckoutSessionsRepository, {
    machine: CheckoutSessionStateMachine,
    make: (fields) => new CheckoutSessionRecord(fields),
    event: (type, session) => Effect.succeed({ type, object: toEventObject(session) }),
    notFound: (id) => new CheckoutSessionNotFound({ id })
  })
}
