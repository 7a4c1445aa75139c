import { Effect, FiberRef, type Tracer } from "effect"

/**
 * `Effect.withSpan`, free when tracing is off. `withSpan` makes a span object whatever the tracer
 * (a no-op one when it is disabled), captures a stack trace for it, copies the context to hold it and
 * ends it on exit: about 10 µs a span on the request's path, for nothing. Here, with tracing off the
 * effect runs as it is; with tracing on the span is the same (no stack trace: the span's name says
 * where it is, and capturing one costs a few microseconds per span).
 */
export const traced = (name: string, options?: SpanOptions | (() => SpanOptions)) => <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.withFiberRuntime((fiber) =>
    fiber.getFiberRef(FiberRef.currentTracerEnabled)
      ? Effect.withSpan(self, name, { ...(typeof options === "function" ? options() : options), captureStackTrace: false })
      : self
  )

/** A span's options; as a function when making them costs something, so that untraced calls skip it. */
type SpanOptions = Omit<Tracer.SpanOptions, "captureStackTrace">

/**
 * `Effect.annotateCurrentSpan`, free when tracing is off. Without a span the library fails with a
 * `NoSuchElementException` (an Error, its stack captured) and ignores it: three times a payment on
 * the request's path, for nothing. With tracing on the span is annotated as before.
 */
export const annotateSpan = (values: Record<string, unknown>): Effect.Effect<void> =>
  Effect.withFiberRuntime((fiber) => fiber.getFiberRef(FiberRef.currentTracerEnabled) ? Effect.annotateCurrentSpan(values) : Effect.void)
