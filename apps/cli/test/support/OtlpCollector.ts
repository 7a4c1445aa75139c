import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { gunzipSync } from "node:zlib"

/** One exported span, its attributes flattened to plain values. */
export interface CollectedSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId: string | undefined
  readonly name: string
  readonly kind: number
  readonly attributes: Readonly<Record<string, unknown>>
  /** The spans it links to (not its parent): another trace's span, by ids. */
  readonly links: ReadonlyArray<{ readonly traceId: string; readonly spanId: string }>
  readonly serviceName: unknown
  /** The attributes of the resource it was exported with. */
  readonly resource: Readonly<Record<string, unknown>>
}

interface OtlpValue {
  readonly stringValue?: string
  readonly intValue?: number | string
  readonly doubleValue?: number
  readonly boolValue?: boolean
  readonly arrayValue?: { readonly values?: ReadonlyArray<OtlpValue> }
}
type OtlpAttributes = ReadonlyArray<{ readonly key: string; readonly value: OtlpValue }> | undefined

const plain = (value: OtlpValue): unknown =>
  value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : undefined) ?? value.doubleValue ?? value.boolValue ??
    value.arrayValue?.values?.map(plain)

const flatten = (attributes: OtlpAttributes) => Object.fromEntries((attributes ?? []).map(({ key, value }) => [key, plain(value)]))

/**
 * A stand-in for an OpenTelemetry collector: an HTTP server taking OTLP/JSON at `/v1/traces` (what
 * the OTLP/HTTP exporter sends), keeping every body as received and the spans decoded from it.
 */
export const startCollector = () =>
  new Promise<{
    readonly url: string
    readonly bodies: Array<string>
    readonly spans: Array<CollectedSpan>
    readonly close: () => Promise<void>
  }>((resolve) => {
    const bodies: Array<string> = []
    const spans: Array<CollectedSpan> = []
    const server = http.createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const raw = Buffer.concat(chunks)
        const text = (request.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString("utf8")
        if (request.url !== "/v1/traces" || !String(request.headers["content-type"]).includes("json")) {
          response.writeHead(415).end()
          return
        }
        bodies.push(text)
        const document = JSON.parse(text) as {
          resourceSpans?: ReadonlyArray<{
            resource?: { attributes?: OtlpAttributes }
            scopeSpans?: ReadonlyArray<{
              spans?: ReadonlyArray<{
                traceId: string
                spanId: string
                parentSpanId?: string
                name: string
                kind: number
                attributes?: OtlpAttributes
                links?: ReadonlyArray<{ traceId: string; spanId: string }>
              }>
            }>
          }>
        }
        for (const resourceSpans of document.resourceSpans ?? []) {
          const resource = flatten(resourceSpans.resource?.attributes)
          const serviceName = resource["service.name"]
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              spans.push({
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId === undefined || span.parentSpanId === "" ? undefined : span.parentSpanId,
                name: span.name,
                kind: span.kind,
                attributes: flatten(span.attributes),
                links: (span.links ?? []).map(({ spanId, traceId }) => ({ traceId, spanId })),
                serviceName,
                resource
              })
            }
          }
        }
        response.writeHead(200, { "content-type": "application/json" }).end("{}")
      })
    })
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        bodies,
        spans,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections()
            server.close(() => done())
          })
      }))
  })

/** Waits, up to `deadlineMs`, until `found` finds something among the collected spans. */
export const waitForSpans = async <A>(
  spans: ReadonlyArray<CollectedSpan>,
  found: (spans: ReadonlyArray<CollectedSpan>) => A | undefined,
  deadlineMs: number
) => {
  const until = Date.now() + deadlineMs
  for (;;) {
    const result = found(spans)
    if (result !== undefined) return result
    if (Date.now() > until) throw new Error(`no such spans within ${deadlineMs} ms; collected: ${spans.map((span) => span.name).join(", ")}`)
    await new Promise((resume) => setTimeout(resume, 50))
  }
}
