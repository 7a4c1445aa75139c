import { MetricsServer, MetricsServerLive, withTracing } from "@orchestrator/application"
import { refreshScrapeGauges } from "@orchestrator/sql"
import { fakeAdyen, testDatabases } from "@orchestrator/testing"
import { Effect, type Layer, type Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkoutSetup } from "../../http/test/support/CheckoutFixtures.js"
import { json, newKey, paymentWith } from "../../http/test/support/Fixtures.js"
import { startReceiver } from "../../http/test/support/Receiver.js"
import { deliverWebhooks, merchant, raw, serverLayer } from "../../http/test/support/TestServer.js"
import { type CollectedSpan, startCollector, waitForSpans } from "./support/OtlpCollector.js"

let collector: Awaited<ReturnType<typeof startCollector>>

beforeAll(async () => {
  collector = await startCollector()
  // What an operator sets; the exporter and its batch processor read them when the service starts.
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.url
  process.env.OTEL_BSP_SCHEDULE_DELAY = "50"
  delete process.env.OTEL_SERVICE_NAME
})

afterAll(() => collector.close())

const SERVER = 2
const CLIENT = 3

/** The request's spans: its server span (found by the Request-Id it answered with) and all of its trace. */
const traceOf = (requestId: string) => (spans: ReadonlyArray<CollectedSpan>) => {
  const root = spans.find((span) => span.attributes["request.id"] === requestId)
  if (root === undefined) return undefined
  const trace = spans.filter((span) => span.traceId === root.traceId)
  // The PSP's span ends before the request's, and may come in an earlier batch: wait for both.
  return trace.some((span) => span.name === "psp authorize") ? { root, trace } : undefined
}

const service = serverLayer(testDatabases()[0]!.layer)

/** Runs `program` against the service, traced as the environment says, and stops the service (flushing its spans). */
const againstTracedService = <A, E>(program: Effect.Effect<A, E, Layer.Layer.Success<typeof service> | Scope.Scope>) =>
  Effect.runPromise(program.pipe(Effect.scoped, Effect.provide(service), withTracing(process.env)))

describe("traces over OTLP/HTTP", () => {
  it("a payment is one trace: the request, its SQL and its PSP call, with ids and outcomes, and no secret anywhere", async () => {
    const seen = await againstTracedService(
      Effect.gen(function*() {
        const { organization, secret, baseUrl } = yield* merchant()
        const receiver = yield* startReceiver
        const endpoint = yield* raw(`${baseUrl}/v1/webhooks/endpoints`, {
          method: "POST",
          headers: json(secret),
          body: JSON.stringify({ url: receiver.url, enabled_events: ["payment.succeeded"] })
        })
        expect(endpoint.status).toBe(201)
        const paid = yield* raw(`${baseUrl}/v1/payments`, { method: "POST", headers: json(secret, newKey()), body: JSON.stringify(paymentWith("tok_visa")) })
        expect(paid.status).toBe(201)
        const declined = yield* raw(`${baseUrl}/v1/payments`, {
          method: "POST",
          headers: json(secret, newKey()),
          body: JSON.stringify(paymentWith("tok_chargeDeclined"))
        })
        expect(declined.status).toBe(402)
        // A customer's browser reads a checkout session with its client secret, in a header and in the query.
        const checkout = yield* checkoutSetup()
        const byHeader = yield* checkout.browser(`/v1/checkout/sessions/${checkout.session.id}`)
        const byQuery = yield* checkout.browser(`/v1/checkout/sessions/${checkout.session.id}`, { via: "query" })
        expect([byHeader.status, byQuery.status]).toEqual([200, 200])
        // The worker's part: the payment's event, signed with the endpoint's secret, to the receiver.
        yield* deliverWebhooks
        expect(receiver.received).toHaveLength(1)
        return {
          organizationId: organization.id,
          apiKey: secret,
          webhookSecret: endpoint.json.secret as string,
          paymentId: paid.json.id as string,
          paidRequest: paid.headers.get("request-id")!,
          declinedRequest: declined.headers.get("request-id")!,
          eventId: String(receiver.received[0]!.headers["service-event-id"]),
          clientSecret: checkout.session.client_secret as string,
          checkoutRequests: [byHeader.headers.get("request-id")!, byQuery.headers.get("request-id")!]
        }
      })
    )
    // The service has stopped: what it had buffered was flushed on the way out.

    const { root, trace } = await waitForSpans(collector.spans, traceOf(seen.paidRequest), 20_000)
    expect(root).toMatchObject({
      name: "POST /v1/payments",
      kind: SERVER,
      parentSpanId: undefined,
      serviceName: "payment-orchestrator"
    })
    expect(root.attributes).toMatchObject({
      "http.route": "/v1/payments",
      "http.request.method": "POST",
      "http.response.status_code": 201,
      "request.id": seen.paidRequest,
      "organization.id": seen.organizationId
    })
    // One trace: every span of the request hangs from the server span, and no other request's are in it.
    const ids = new Set(trace.map((span) => span.spanId))
    for (const span of trace) if (span !== root) expect(ids.has(span.parentSpanId!)).toBe(true)
    expect(trace.filter((span) => span.kind === SERVER)).toEqual([root])

    // The resource, by OpenTelemetry's conventions: the service, its version, this process.
    expect(root.resource).toMatchObject({
      "service.name": "payment-orchestrator",
      "service.version": expect.stringMatching(/^[0-9a-f]{7,}$|^unknown$/),
      "service.instance.id": expect.stringMatching(/^[0-9a-f-]{36}$/)
    })

    const statements = trace.filter((span) => span.name === "sql.execute")
    expect(statements.length).toBeGreaterThan(0)
    expect(statements.some((span) => /insert into/i.test(String(span.attributes["db.query.text"])))).toBe(true)
    // The statement's text, never its parameters (the payment's card token is one of them).
    expect(statements.every((span) => !("db.query.parameters" in span.attributes))).toBe(true)

    const psp = trace.find((span) => span.name === "psp authorize")!
    expect(psp.kind).toBe(CLIENT)
    expect(psp.attributes).toMatchObject({
      "psp.provider": "sandbox",
      "psp.connection_name": "sandbox_a",
      "psp.operation": "authorize",
      "psp.outcome": "Authorized",
      "payment.id": seen.paymentId
    })
    expect(String(psp.attributes["psp.connection_id"])).toMatch(/^pcn_/)
    expect(typeof psp.attributes["psp.latency_ms"]).toBe("number")

    const refused = await waitForSpans(collector.spans, traceOf(seen.declinedRequest), 20_000)
    expect(refused.root.attributes["http.response.status_code"]).toBe(402)
    expect(refused.trace.find((span) => span.name === "psp authorize")!.attributes).toMatchObject({
      "psp.outcome": "Refused",
      "psp.outcome_code": "card_declined"
    })

    const attempt = collector.spans.find((span) => span.name === "webhook delivery_attempt")!
    expect(attempt.attributes).toMatchObject({
      "event.id": seen.eventId,
      // The payment the event is about: what ties the worker's trace to the request's (`payment.id` there).
      "event.object_id": seen.paymentId,
      "organization.id": seen.organizationId,
      "webhook.attempt": 1,
      "webhook.outcome": "succeeded",
      "http.response.status_code": 200,
      // The request whose payment made the event: its id, and a link to its server span, in its own trace.
      "request.id": seen.paidRequest
    })
    expect(attempt.links).toEqual([{ traceId: root.traceId, spanId: root.spanId }])
    expect(attempt.traceId).not.toBe(root.traceId)
    const send = collector.spans.find((span) => span.name === "webhook send")!
    expect(send).toMatchObject({ parentSpanId: attempt.spanId, kind: CLIENT })
    expect(send.attributes["server.address"]).toBe("127.0.0.1")

    // The browser's reads are traced, without the client secret's header and with the URL cut before its query.
    for (const requestId of seen.checkoutRequests) {
      const read = await waitForSpans(collector.spans, (spans) => spans.find((span) => span.attributes["request.id"] === requestId), 20_000)
      expect(read.attributes["http.route"]).toBe("/v1/checkout/sessions/:id")
      expect(read.attributes["url.full"]).toMatch(/\/v1\/checkout\/sessions\/[^?]+$/)
      expect(read.attributes).not.toHaveProperty("url.query")
      expect(read.attributes).not.toHaveProperty("http.request.header.service-client-secret")
    }

    // SQL reads as written: no identifier taken for a secret (the endpoint's sealed secret is read by
    // its column name to sign the delivery), and the settings the delivery claim makes fold into it.
    const allStatements = collector.spans.filter((span) => span.name === "sql.execute").map((span) => String(span.attributes["db.query.text"]))
    expect(allStatements.some((text) => text.includes("secret_sealed"))).toBe(true)
    expect(allStatements.filter((text) => text.includes("[redacted]"))).toEqual([])
    expect(allStatements.filter((text) => /^\s*set\s/i.test(text))).toEqual([])

    // Nothing secret in anything exported: not the API key (nor its header), the card tokens, the
    // webhook secret, the checkout session's client secret.
    const exported = collector.bodies.join("\n")
    for (const secret of [seen.apiKey, "tok_visa", "tok_chargeDeclined", seen.webhookSecret, seen.clientSecret, "Bearer"]) {
      expect(exported).not.toContain(secret)
    }
    expect(exported).not.toMatch(/http\.request\.header\.authorization/)
  }, 120_000)

  it("a PSP's HTTP exchanges are children of its call, without its credentials, and no trace header goes to the PSP", async () => {
    const apiKey = `AQE${Math.random().toString(36).slice(2)}Zq9`
    const hmacKey = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056"
    const seen = await againstTracedService(
      Effect.gen(function*() {
        const adyen = yield* fakeAdyen
        const { secret, baseUrl } = yield* merchant()
        const created = yield* raw(`${baseUrl}/v1/provider-connections`, {
          method: "POST",
          headers: json(secret),
          body: JSON.stringify({
            name: "adyen_eu",
            type: "adyen",
            credentials: { api_key: apiKey, merchant_account: adyen.merchantAccount },
            webhook_secret: hmacKey,
            base_url: adyen.url
          })
        })
        expect(created.status).toBe(201)
        const paid = yield* raw(`${baseUrl}/v1/payments`, {
          method: "POST",
          headers: json(secret, newKey()),
          body: JSON.stringify(paymentWith("visa_ok", { provider: "adyen_eu" }))
        })
        expect(paid.status).toBe(201)
        return { requestId: paid.headers.get("request-id")!, sentHeaders: adyen.exchanges.map((exchange) => Object.keys(exchange.headers)) }
      })
    )
    const { trace } = await waitForSpans(collector.spans, traceOf(seen.requestId), 20_000)
    const call = trace.find((span) => span.name === "psp authorize")!
    expect(call.attributes).toMatchObject({ "psp.provider": "adyen", "psp.connection_name": "adyen_eu", "psp.outcome": "Authorized" })
    const exchange = trace.find((span) => span.name === "psp http")!
    expect(exchange).toMatchObject({ parentSpanId: call.spanId, kind: CLIENT })
    expect(exchange.attributes).toMatchObject({ "http.request.method": "POST", "url.path": "/v71/payments", "http.response.status_code": 200 })
    expect(trace.some((span) => span.parentSpanId === exchange.spanId && span.kind === CLIENT)).toBe(true)
    expect(seen.sentHeaders.flat()).not.toContain("traceparent")
    const exported = collector.bodies.join("\n")
    for (const secret of [apiKey, hmacKey, "visa_ok\""]) expect(exported).not.toContain(secret)
    expect(exported).not.toMatch(/x-api-key/i)
  }, 120_000)

  it("a client's traceparent starts nothing in the operator's traces unless ORCHESTRATOR_TRUST_INCOMING_TRACES says so", async () => {
    const clientTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
    const clientSpan = "00f067aa0ba902b7"
    const requestWith = (trusted: boolean) =>
      Effect.runPromise(
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const read = yield* raw(`${baseUrl}/v1/payments?limit=1`, {
            headers: { ...json(secret), traceparent: `00-${clientTrace}-${clientSpan}-01`, b3: `${clientTrace}-${clientSpan}-1` }
          })
          expect(read.status).toBe(200)
          return read.headers.get("request-id")!
        }).pipe(
          Effect.scoped,
          Effect.provide(serverLayer(testDatabases()[0]!.layer, { server: { trustIncomingTraces: trusted } })),
          withTracing(process.env)
        )
      )
    const serverSpanOf = (requestId: string) =>
      waitForSpans(collector.spans, (spans) => spans.find((span) => span.attributes["request.id"] === requestId), 20_000)

    const untrusted = await serverSpanOf(await requestWith(false))
    expect(untrusted.traceId).not.toBe(clientTrace)
    expect(untrusted.parentSpanId).toBeUndefined()
    expect(collector.spans.filter((span) => span.traceId === clientTrace)).toEqual([])

    const trusted = await serverSpanOf(await requestWith(true))
    expect(trusted).toMatchObject({ traceId: clientTrace, parentSpanId: clientSpan })
  }, 120_000)

  it("probes leave no trace unless ORCHESTRATOR_TRACE_PROBES says so: /healthz, /readyz and a scrape of /metrics with the SQL it reads", async () => {
    const probe = (traceProbes: boolean) =>
      Effect.runPromise(
        Effect.gen(function*() {
          const { baseUrl, secret } = yield* merchant()
          const metrics = yield* MetricsServer
          const health = yield* raw(`${baseUrl}/healthz`)
          const ready = yield* raw(`${baseUrl}/readyz`)
          const scraped = yield* Effect.promise(() => fetch(metrics.url).then((answer) => answer.status))
          // A request that is traced, so that the exporter has flushed the probes' spans, if any, by then.
          const read = yield* raw(`${baseUrl}/v1/payments?limit=1`, { headers: json(secret) })
          expect([health.status, ready.status, scraped, read.status]).toEqual([200, 200, 200, 200])
          return { probes: [health.headers.get("request-id")!, ready.headers.get("request-id")!], read: read.headers.get("request-id")! }
        }).pipe(
          Effect.scoped,
          Effect.provide(MetricsServerLive({ host: "127.0.0.1", port: 0, refresh: refreshScrapeGauges, traced: traceProbes })),
          Effect.provide(serverLayer(testDatabases()[0]!.layer, { server: { traceProbes } })),
          withTracing(process.env)
        )
      )
    const serverSpanOf = (requestId: string) =>
      waitForSpans(collector.spans, (spans) => spans.find((span) => span.attributes["request.id"] === requestId), 20_000)
    const scrapeStatements = () =>
      collector.spans.filter((span) =>
        span.name === "sql.execute" && span.parentSpanId === undefined && /webhook_deliveries/.test(String(span.attributes["db.query.text"]))
      )

    const quiet = await probe(false)
    await serverSpanOf(quiet.read)
    for (const requestId of quiet.probes) expect(collector.spans.filter((span) => span.attributes["request.id"] === requestId)).toEqual([])
    expect(scrapeStatements().map((span) => span.attributes["db.query.text"])).toEqual([])

    const traced = await probe(true)
    for (const requestId of traced.probes) expect((await serverSpanOf(requestId)).name).toMatch(/^GET \/(healthz|readyz)$/)
    await waitForSpans(collector.spans, (spans) => (scrapeStatements().length > 0 ? spans : undefined), 20_000)
  }, 120_000)
})
