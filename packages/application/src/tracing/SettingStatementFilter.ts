import type { Context } from "@opentelemetry/api"
import type { ReadableSpan, Span, SpanProcessor } from "@opentelemetry/sdk-trace-base"

/** A statement that only changes a setting of the session or transaction (`set local enable_seqscan = off`, `reset …`). */
const SETTING = /^\s*(set|reset)\s/i

const isSettingStatement = (span: ReadableSpan) => {
  if (span.name !== "sql.execute") return false
  const text = span.attributes["db.query.text"] ?? span.attributes["db.statement"]
  return typeof text === "string" && SETTING.test(text)
}

/**
 * Folds the statements that only tune how the database runs the next one into their parent: they
 * take no time worth a span, and a trace reads as the work done (`claim deliveries`), not as its
 * plumbing. Their time stays inside the parent's; they make no span of their own (and have no children).
 */
export class SettingStatementFilter implements SpanProcessor {
  constructor(private readonly next: SpanProcessor) {}

  onStart(span: Span, parentContext: Context): void {
    this.next.onStart(span, parentContext)
  }

  onEnd(span: ReadableSpan): void {
    if (!isSettingStatement(span)) this.next.onEnd(span)
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush()
  }

  shutdown(): Promise<void> {
    return this.next.shutdown()
  }
}
