import { Effect, FiberRef, Option, Tracer } from "effect"

/**
 * The API request a piece of work was done for: its `req_…` id and, when it was traced, its server
 * span as a W3C `traceparent` (`00-<trace id>-<span id>-01`). Events keep it (never in their
 * envelope), so the worker that later acts on an event can link its span to that request's trace.
 */
export interface CausingRequest {
  readonly requestId: string
  readonly traceParent: string | null
}

/** The request being served, set by the HTTP shell for the request's whole handling; none in workers. */
export const CurrentCausingRequest = FiberRef.unsafeMake<CausingRequest | null>(null)

const TRACE_PARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/

/** The span's `traceparent`, or null for a span that is not exported (untraced: Effect's no-op span). */
export const traceParentOf = (span: Tracer.AnySpan): string | null => {
  const text = `00-${span.traceId}-${span.spanId}-${span.sampled ? "01" : "00"}`
  return TRACE_PARENT.test(text) ? text : null
}

/**
 * The current span when tracing is on and there is one. `Effect.currentSpan` says there is none by
 * failing with a `NoSuchElementException` (an Error, its stack captured): for nothing when untraced.
 */
export const currentSpanIfTraced: Effect.Effect<Option.Option<Tracer.Span>> = Effect.withFiberRuntime((fiber) =>
  fiber.getFiberRef(FiberRef.currentTracerEnabled) ? Effect.option(Effect.currentSpan) : Effect.succeedNone
)

/** The request `requestId` as served under the current span (its server span, when traced). */
export const causingRequestHere = (requestId: string): Effect.Effect<CausingRequest> =>
  Effect.map(currentSpanIfTraced, (span) => ({
    requestId,
    traceParent: Option.isSome(span) ? traceParentOf(span.value) : null
  }))

/** What a worker's span about an event says of the request that caused it: its `request.id`. */
export const causeAttributes = (cause: CausingRequest | null): Record<string, string> => cause === null ? {} : { "request.id": cause.requestId }

/**
 * A worker's span about an event links to the span of the request that caused it, when that was
 * traced: a link, not a parent, since the work is its own trace, done later and maybe more than once.
 */
export const causeLinks = (cause: CausingRequest | null): ReadonlyArray<Tracer.SpanLink> => {
  const parsed = cause?.traceParent == null ? null : TRACE_PARENT.exec(cause.traceParent)
  return parsed === null ? [] : [{
    _tag: "SpanLink",
    span: Tracer.externalSpan({ traceId: parsed[1]!, spanId: parsed[2]!, sampled: parsed[0].endsWith("-01") }),
    attributes: {}
  }]
}
