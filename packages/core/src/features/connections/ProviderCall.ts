import { Clock, Duration, Effect, Fiber, Option } from "effect"
import type { ConnectorError } from "../../domain/providers/ConnectorOutcomes.js"

/**
 * How a PSP call ended: its answer, "nothing was processed", or no answer in time. `reason` is ours;
 * `providerMessage` the PSP's own text, for the attempt record only.
 */
export type CallResult<A> =
  | { readonly _tag: "Answered"; readonly value: A }
  | { readonly _tag: "Unavailable"; readonly reason: string; readonly providerMessage?: string | undefined }
  /** `timedOut`: the deadline passed; else the connection broke after sending (or the PSP is still at it). */
  | { readonly _tag: "NoAnswer"; readonly timedOut: boolean; readonly reason: string }

/**
 * Runs a connector call under a timeout and measures it. A timeout is "no answer", never a
 * failure: the PSP may have acted, so the caller keeps the object open for reconciliation. The
 * call is abandoned at the deadline: an answer that comes later is never applied.
 */
export const callProvider = <A>(call: Effect.Effect<A, ConnectorError>, timeout: Duration.DurationInput) =>
  Effect.gen(function*() {
    const started = yield* Clock.currentTimeMillis
    // The call runs in a fiber of its own, not a child (a child is interrupted with its parent): the
    // caller may be uninterruptible (an API request is, so that a client hanging up does not stop a
    // payment half way), and the interruption its client's leaving sends would otherwise cut the call
    // and abandon the payment while the PSP handles it. Only the deadline ends the call, or a caller
    // that is interruptible (a worker stopping) and is interrupted while it waits.
    const result: CallResult<A> = yield* Effect.flatMap(
      Effect.forkDaemon(call.pipe(
        // The deadline must end the call instead of waiting for it.
        Effect.interruptible,
        Effect.timeoutOption(timeout),
        Effect.map(Option.match({
          onNone: (): CallResult<A> => ({
            _tag: "NoAnswer",
            timedOut: true,
            reason: `no answer within ${Duration.toMillis(timeout)} ms`
          }),
          onSome: (value): CallResult<A> => ({ _tag: "Answered", value })
        })),
        Effect.catchTags({
          ConnectorUnavailable: (error) => Effect.succeed<CallResult<A>>({ _tag: "Unavailable", reason: error.reason, providerMessage: error.providerMessage }),
          ConnectorOutcomeUnknown: (error) => Effect.succeed<CallResult<A>>({ _tag: "NoAnswer", timedOut: error.timedOut === true, reason: error.reason })
        })
      )),
      // Its outcome, not its fiber refs: joining would merge the call's context back into the
      // request's, a walk over every service of the application at every PSP call.
      (fiber) => Effect.onInterrupt(Effect.flatten(Fiber.await(fiber)), () => Fiber.interrupt(fiber))
    )
    return { result, latencyMs: (yield* Clock.currentTimeMillis) - started }
  })
