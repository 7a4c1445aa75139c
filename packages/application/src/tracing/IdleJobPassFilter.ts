import type { Context } from "@opentelemetry/api"
import type { ReadableSpan, Span, SpanProcessor } from "@opentelemetry/sdk-trace-base"

/** The root span of one pass of a worker job (`BackgroundJobs` names them `job <name>`). */
const isJobPass = (span: ReadableSpan) => span.parentSpanContext === undefined && span.name.startsWith("job ")

/**
 * Passes on only the job passes that did something. Every job looks for work every second or so, and
 * most passes find none: exported, they would bury the traces worth reading under thousands of
 * empty ones. The spans of a pass are held until the pass ends; one that handled nothing
 * (`job.items` = 0) is dropped with them, any other (a failed pass included) goes on whole.
 */
export class IdleJobPassFilter implements SpanProcessor {
  private readonly held = new Map<string, Array<ReadableSpan>>()

  constructor(private readonly next: SpanProcessor) {}

  onStart(span: Span, parentContext: Context): void {
    if (isJobPass(span)) this.held.set(span.spanContext().traceId, [])
    this.next.onStart(span, parentContext)
  }

  onEnd(span: ReadableSpan): void {
    const traceId = span.spanContext().traceId
    const held = this.held.get(traceId)
    if (held === undefined) return this.next.onEnd(span)
    if (!isJobPass(span)) {
      held.push(span)
      return
    }
    this.held.delete(traceId)
    if (span.attributes["job.items"] === 0) return
    for (const child of held) this.next.onEnd(child)
    this.next.onEnd(span)
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush()
  }

  shutdown(): Promise<void> {
    return this.next.shutdown()
  }
}
