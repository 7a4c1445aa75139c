import type { Attributes, SpanStatus } from "@opentelemetry/api"
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base"
import { redactAttributes, scrubText, serverSpanName, serverSpanStatus } from "./SpanRedaction.js"

/** OpenTelemetry's `SpanKind.SERVER`, without importing the API at run time. */
const SERVER = 1

const statusOf = (span: ReadableSpan, attributes: Attributes): SpanStatus => {
  const status = span.kind === SERVER ? serverSpanStatus(span.status, attributes) as SpanStatus : span.status
  return status.message === undefined ? status : { ...status, message: scrubText(status.message) }
}

/** A copy of the span as it may leave the process: attributes, events, links and status redacted. */
export const redactSpan = (span: ReadableSpan): ReadableSpan => {
  const attributes = redactAttributes(span.attributes) as Attributes
  return {
    name: serverSpanName(span.name, attributes),
    kind: span.kind,
    spanContext: () => span.spanContext(),
    ...(span.parentSpanContext === undefined ? {} : { parentSpanContext: span.parentSpanContext }),
    startTime: span.startTime,
    endTime: span.endTime,
    status: statusOf(span, attributes),
    attributes,
    links: span.links.map((link) => link.attributes === undefined ? link : { ...link, attributes: redactAttributes(link.attributes) as Attributes }),
    events: span.events.map((event) => event.attributes === undefined ? event : { ...event, attributes: redactAttributes(event.attributes) as Attributes }),
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount
  }
}

/**
 * The exporter every span leaves through: the one it wraps (OTLP) only ever sees redacted copies, so
 * whatever a library records, no credential, secret or card data reaches the collector.
 */
export class RedactingSpanExporter implements SpanExporter {
  constructor(private readonly exporter: SpanExporter) {}

  export(spans: Array<ReadableSpan>, resultCallback: Parameters<SpanExporter["export"]>[1]): void {
    this.exporter.export(spans.map(redactSpan), resultCallback)
  }

  shutdown(): Promise<void> {
    return this.exporter.shutdown()
  }

  forceFlush(): Promise<void> {
    return this.exporter.forceFlush?.() ?? Promise.resolve()
  }
}
