import { Clock, Duration, Effect, Exit, Fiber } from "effect"
import type { ConnectorError } from "../../domain/providers/ConnectorOutcomes.js"

/**
 * How a PSP call ended: its answer, "nothing was processed", or no answer in time. `reason` is ours;
 * `providerMessage` the PSP's own text, for the attempt record only.
 */
export type CallResult<A> =
  | { readonly _tag: "Answered"; readonly value: A }
  | {
    readonly _tag: "Unavailable"
    readonly reason: string
    readonly providerMessage?: string | undefined
    /** A vaulted card that did not open: the PSP was never called (see `ConnectorUnavailable`). */
    readonly cardUnusable?: true | undefined
  }
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
    const result = yield* withinDeadline(
      call.pipe(
        Effect.map((value): CallResult<A> => ({ _tag: "Answered", value })),
        Effect.catchTags({
          ConnectorUnavailable: (error) =>
            Effect.succeed<CallResult<A>>({
              _tag: "Unavailable",
              reason: error.reason,
              providerMessage: error.providerMessage,
              ...(error.cardUnusable === true ? { cardUnusable: true } : {})
            }),
          ConnectorOutcomeUnknown: (error) => Effect.succeed<CallResult<A>>({ _tag: "NoAnswer", timedOut: error.timedOut === true, reason: error.reason })
        })
      ),
      timeout,
      (): CallResult<A> => ({ _tag: "NoAnswer", timedOut: true, reason: `no answer within ${Duration.toMillis(timeout)} ms` })
    )
    return { result, latencyMs: (yield* Clock.currentTimeMillis) - started }
  })

/**
 * `call`'s outcome, or `late()` once `timeout` has passed (the call is then interrupted and its
 * answer never read). The call runs in a fiber of its own, not a child (a child is interrupted with
 * its parent): the caller may be uninterruptible (an API request is, so that a client hanging up does
 * not stop a payment half way), and the interruption its client's leaving sends would otherwise cut
 * the call and abandon the payment while the PSP handles it. Only the deadline ends the call, or a
 * caller that is interruptible (a worker stopping) and is interrupted while it waits.
 *
 * Two fibers, the call's and the deadline's, and whichever ends first settles the wait. This is
 * what `Effect.timeoutOption` does too, less its race machinery (forking both as children of a third,
 * the loser interrupted and awaited), which cost about 50 µs a call. The outcome is handed over, not
 * the fibers' refs: joining would merge the call's context back into the caller's, a walk over every
 * service of the application at every PSP call.
 */
const withinDeadline = <A>(call: Effect.Effect<A>, timeout: Duration.DurationInput, late: () => A): Effect.Effect<A> =>
  Effect.flatMap(
    Effect.forkDaemon(Effect.interruptible(call)),
    (callFiber) =>
      Effect.flatMap(Effect.forkDaemon(Effect.interruptible(Effect.sleep(timeout))), (deadline) =>
        Effect.async<A>((resume) => {
          let settled = false
          callFiber.addObserver((exit) => {
            if (settled) return
            settled = true
            deadline.unsafeInterruptAsFork(deadline.id())
            resume(exit)
          })
          deadline.addObserver((exit) => {
            if (settled || !Exit.isSuccess(exit)) return
            settled = true
            callFiber.unsafeInterruptAsFork(callFiber.id())
            resume(Effect.succeed(late()))
          })
          // The caller interrupted while it waits: neither fiber outlives the wait.
          return Effect.suspend(() => {
            settled = true
            return Effect.zipRight(Fiber.interruptFork(deadline), Fiber.interrupt(callFiber))
          })
        }))
  )
