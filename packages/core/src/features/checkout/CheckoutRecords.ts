import { Effect } from "effect"
import { CheckoutSessionNotFound } from "../../domain/checkout/CheckoutErrors.js"
import { CheckoutSessionRecord, type CheckoutSessionStatus, toEventObject } from "../../domain/checkout/CheckoutSession.js"
import { CheckoutSessionStateMachine } from "../../domain/checkout/CheckoutSessionStateMachine.js"
import { CheckoutSessionsRepository } from "../../ports/CheckoutSessionsRepository.js"
import { lifecycleLayer, LifecycleTag } from "../lifecycle/Lifecycle.js"

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
