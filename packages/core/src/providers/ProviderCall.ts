import { Clock, type Duration, Effect, Option } from "effect"
import type { ConnectorError } from "./PaymentConnector.js"

/** How a PSP call ended: its answer, "nothing was processed", or no answer in time. */
export type CallResult<A> =
  | { readonly _tag: "Answered"; readonly value: A }
  | { readonly _tag: "Unavailable"; readonly reason: string }
  | { readonly _tag: "NoAnswer" }

/**
 * Runs a connector call under a timeout and measures it. A timeout is "no answer", never a
 * failure: the PSP may have acted, so the caller keeps the object open for reconciliation.
 */
export const callProvider = <A>(call: Effect.Effect<A, ConnectorError>, timeout: Duration.DurationInput) =>
  Effect.gen(function*() {
    const started = yield* Clock.currentTimeMillis
    const result: CallResult<A> = yield* call.pipe(
      Effect.timeoutOption(timeout),
      Effect.map(Option.match({
        onNone: (): CallResult<A> => ({ _tag: "NoAnswer" }),
        onSome: (value): CallResult<A> => ({ _tag: "Answered", value })
      })),
      Effect.catchTags({
        ConnectorUnavailable: (error) => Effect.succeed<CallResult<A>>({ _tag: "Unavailable", reason: error.reason }),
        ConnectorOutcomeUnknown: () => Effect.succeed<CallResult<A>>({ _tag: "NoAnswer" })
      })
    )
    return { result, latencyMs: (yield* Clock.currentTimeMillis) - started }
  })
