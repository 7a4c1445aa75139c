import { describe, expect, it } from "vitest"
import { redactAttributes, scrubStatement, scrubText, serverSpanName, serverSpanStatus } from "../src/tracing/SpanRedaction.js"
import { DEFAULT_SERVICE_NAME, tracingSettings } from "../src/tracing/TracingSettings.js"

describe("what a span may say once exported", () => {
  it("keeps useful headers, drops every other one (credentials, client secrets, signatures) and the query", () => {
    expect(redactAttributes({
      "http.request.method": "GET",
      "url.full": "http://localhost:3000/checkout/cs_1?client_secret=cs_1_secret_ABC#top",
      "url.query": "client_secret=cs_1_secret_ABC",
      "http.request.header.authorization": "Bearer sk_test_abc",
      "http.request.header.service-client-secret": "cs_1_secret_ABC",
      "http.request.header.stripe-signature": "t=1,v1=ff",
      "http.request.header.idempotency-key": "order-1001",
      "http.response.header.request-id": "req_1",
      "http.response.status_code": 200
    })).toEqual({
      "http.request.method": "GET",
      "url.full": "http://localhost:3000/checkout/cs_1",
      "http.request.header.idempotency-key": "order-1001",
      "http.response.header.request-id": "req_1",
      "http.response.status_code": 200
    })
  })

  it("clears secret-shaped text and card numbers from any text, and leaves ids, timestamps and codes alone", () => {
    const sk = `sk_live_${"a1B2".repeat(10)}`
    expect(scrubText(`key ${sk} failed`)).toBe("key [redacted] failed")
    expect(scrubText("signed with whsec_K3Y+/= for tok_visa")).toBe("signed with [redacted] for [redacted]")
    expect(scrubText("Authorization: Basic dXNlcjpwYXNz")).toBe("Authorization: [redacted]")
    expect(scrubText("card 4242 4242 4242 4242 declined")).toBe("card [redacted] declined")
    expect(scrubText("pay_01M81 at 1795000000000 card_declined, last4 4242")).toBe("pay_01M81 at 1795000000000 card_declined, last4 4242")
    expect(redactAttributes({ "exception.message": `no key ${sk}`, "db.query.text": "select * from payments where id = $1" })).toEqual({
      "exception.message": "no key [redacted]",
      "db.query.text": "select * from payments where id = $1"
    })
  })

  it("leaves an SQL statement's identifiers as written: its values are bound parameters, only a literal can hold one", () => {
    const statement = "select secret_sealed, previous_secret_sealed, previous_secret_expires_at, locked_at, lock_token from webhook_endpoints where id = $1"
    expect(redactAttributes({ "db.query.text": statement })).toEqual({ "db.query.text": statement })
    expect(redactAttributes({ "db.statement": "update t set note = 'tok_visa 4242424242424242', tok_count = 2" })).toEqual({
      "db.statement": "update t set note = '[redacted] [redacted]', tok_count = 2"
    })
    expect(scrubStatement("select 4242424242424242 as n")).toBe("select [redacted] as n")
  })

  it("names a server span by its method and route template", () => {
    expect(serverSpanName("http.server POST", { "http.request.method": "POST", "http.route": "/v1/payments/:id/capture" })).toBe(
      "POST /v1/payments/:id/capture"
    )
    // No route matched (a 404): the platform's name stays.
    expect(serverSpanName("http.server GET", { "http.request.method": "GET" })).toBe("http.server GET")
    expect(serverSpanName("sql.execute", { "http.route": "/v1/payments" })).toBe("sql.execute")
  })

  it("marks a server span that answered 5xx as an error, and leaves a 4xx (the client's mistake) alone", () => {
    expect(serverSpanStatus({ code: 1 }, { "http.response.status_code": 503 })).toEqual({ code: 2, message: "HTTP 503" })
    expect(serverSpanStatus({ code: 1 }, { "http.response.status_code": 402 })).toEqual({ code: 1 })
    expect(serverSpanStatus({ code: 2, message: "Error: boom" }, { "http.response.status_code": 500 })).toEqual({ code: 2, message: "Error: boom" })
  })
})

describe("when traces are exported", () => {
  it("only with an OTLP endpoint, unless the SDK or the traces exporter is turned off", () => {
    expect(tracingSettings({})).toBeUndefined()
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: " " })).toBeUndefined()
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })?.serviceName).toBe(DEFAULT_SERVICE_NAME)
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces", OTEL_SERVICE_NAME: "orchestrator-eu" })?.serviceName)
      .toBe("orchestrator-eu")
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" })).toBeUndefined()
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_TRACES_EXPORTER: "none" })).toBeUndefined()
  })
})

describe("the resource every span carries", () => {
  const ENDPOINT = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }

  it("names the service, its version, this process and, when known, the deployment's environment, by OpenTelemetry's conventions", () => {
    const resource = tracingSettings({ ...ENDPOINT, ORCHESTRATOR_ENVIRONMENT: "staging" }, () => "263d93c")!.resource
    expect(resource).toEqual({
      "service.name": DEFAULT_SERVICE_NAME,
      "service.version": "263d93c",
      "service.instance.id": expect.stringMatching(/^[0-9a-f-]{36}$/),
      "deployment.environment.name": "staging"
    })
    // Each process is an instance of its own.
    expect(tracingSettings(ENDPOINT)!.resource["service.instance.id"]).not.toBe(resource["service.instance.id"])
    expect(tracingSettings(ENDPOINT)!.resource).not.toHaveProperty("deployment.environment.name")
  })

  it("takes what OTEL_RESOURCE_ATTRIBUTES says first (percent-decoded), the older deployment.environment included", () => {
    const settings = tracingSettings({
      ...ENDPOINT,
      ORCHESTRATOR_ENVIRONMENT: "staging",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=prod,service.name=po-eu,service.version=2.1.0,cloud.region=eu%2Dwest%2D1"
    }, () => "263d93c")!
    expect(settings.serviceName).toBe("po-eu")
    expect(settings.resource).toMatchObject({
      "service.name": "po-eu",
      "service.version": "2.1.0",
      "deployment.environment.name": "prod",
      "cloud.region": "eu-west-1"
    })
    expect(settings.resource).not.toHaveProperty("deployment.environment")
    expect(tracingSettings({ ...ENDPOINT, OTEL_SERVICE_NAME: "from-name", OTEL_RESOURCE_ATTRIBUTES: "service.name=from-attributes" })!.resource["service.name"])
      .toBe("from-name")
  })
})
