import { Effect } from "effect"
import { Dispute, type DisputeStatus } from "../../domain/disputes/Dispute.js"
import { DisputeNotFound } from "../../domain/disputes/DisputeErrors.js"
import { DisputeStateMachine } from "../../domain/disputes/DisputeStateMachine.js"
import { DisputesRepository } from "../../ports/DisputesRepository.js"
import { lifecycleLayer, LifecycleTag } from "../lifecycle/Lifecycle.js"

/** Where a dispute's status changes: its lifecycle over the disputes repository. */
export class DisputeRecords extends LifecycleTag("core/DisputeRecords")<DisputeRecords, DisputeStatus, Dispute, DisputeNotFound>() {
  static readonly layer = lifecycleLayer(DisputeRecords, DisputesRepository, {
    machine: DisputeStateMachine,
    make: (fields) => new Dispute(fields),
    event: (type, dispute) => Effect.succeed({ type, object: dispute }),
    notFound: (id) => new DisputeNotFound({ id })
  })
}
