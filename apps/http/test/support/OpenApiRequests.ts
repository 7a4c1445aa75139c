import fc from "fast-check"
import { createHmac } from "node:crypto"
import type { MerchantObjects, ObjectKind } from "./ObjectFixtures.js"
import { objectKindOf } from "./ObjectFixtures.js"
import {
  arbitraryOf,
  type Hints,
  mutatedBody,
  type OpenApiDocument,
  type Operation,
  parametersOf,
  requestSchemaOf,
  unknownId,
  unstorableText,
  unstorableUrlPart
} from "./OpenApiArbitraries.js"
import { cardNumbersIn } from "./SecretScan.js"

/** One HTTP request, ready to send, with what it is meant to try. */
export interface FuzzRequest {
  readonly label: string
  readonly method: string
  /** Path and query, encoded. */
  readonly target: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string | Uint8Array
  /** The status it must get, when the request is one only a single answer fits. */
  readonly expectStatus?: number
}

/** What the requests can use: the merchant's keys and objects. */
export interface FuzzContext {
  readonly document: OpenApiDocument
  readonly testKey: string
  readonly liveKey: string
  readonly objects: MerchantObjects
  /** Names of the merchant's provider connections. */
  readonly providers: ReadonlyArray<string>
}

const EVENT_TYPES = [
  "payment.created",
  "payment.succeeded",
  "payment.failed",
  "refund.pending",
  "refund.succeeded",
  "provider_connection.error"
]

const TOKENS = ["tok_visa", "tok_chargeDeclined", "tok_insufficientFunds", "tok_threeDSecureRequired", "tok_processingError", "tok_unknown"]

/** What a real client sends for the properties whose schema says little ("a string"). */
const hex = fc.string({ minLength: 16, maxLength: 32, unit: fc.constantFrom(..."0123456789abcdef") })

const hintsFor = (context: FuzzContext): Hints => {
  const ids = (kind: ObjectKind) => fc.constantFrom(...context.objects.ids[kind])
  const provider = fc.constantFrom(...context.providers, "no_such_provider")
  const date = fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true })
    .map((value) => value.toISOString())
  const small = fc.integer({ min: 1, max: 5000 })
  return {
    byRef: {
      Currency: fc.constantFrom("EUR", "USD", "JPY", "KWD", "GBP", "XXX", "eur"),
      DateTimeUtc: date,
      Amount: small
    },
    byProperty: {
      amount: small,
      token: fc.constantFrom(...TOKENS),
      url: fc.constantFrom("http://127.0.0.1:9/hooks", "https://hooks.example/x", "ftp://x", "not a url"),
      return_url: fc.constantFrom("https://shop.example/thanks", "http://localhost/x"),
      base_url: fc.constantFrom("http://127.0.0.1:9", "https://psp.example"),
      provider: provider,
      default_provider: provider,
      exclude: fc.array(provider, { maxLength: 3 }),
      enabled_events: fc.array(fc.constantFrom(...EVENT_TYPES, "*", "no.such_event"), { maxLength: 3 }),
      type: fc.constantFrom("sandbox", "card", "stripe"),
      settings: fc.constantFrom({}, { latency_ms: 0 }),
      conditions: arbitraryOf(context.document, {
        byProperty: { currency: fc.array(fc.constantFrom("EUR", "USD", "eur"), { minLength: 1, maxLength: 2 }) }
      })(context.document.components.schemas.RoutingRuleConditions!),
      credentials: fc.dictionary(fc.constantFrom("api_key", "secret_key", "merchant_account"), hex.map((value) => `cred_fuzz_${value}`), { maxKeys: 2 }),
      webhook_secret: hex.map((value) => `pspwh_fuzz_${value}`),
      payment_id: ids("payment"),
      endpoint_id: ids("webhook_endpoint"),
      customer_id: fc.constantFrom("cus_1", "cus_fuzz"),
      limit: fc.integer({ min: 1, max: 100 }).map(String),
      status: fc.constantFrom("pending", "succeeded", "exhausted", "active", "disabled", "failed"),
      country: fc.constantFrom("US", "DE", "fr")
    }
  }
}

/** A sandbox PSP webhook about one of the merchant's payments or an unknown one, as JSON text. */
const sandboxWebhook = fc.record({
  id: fc.string({ minLength: 1, maxLength: 20 }).map((id) => `evt_${id}`),
  type: fc.constantFrom("charge.updated", "refund.updated", "charge.exploded"),
  created: fc.integer({ min: 0, max: 2 ** 31 }),
  data: fc.oneof(
    fc.record({
      charge: fc.record({
        id: fc.constantFrom("ch_1", "ch_unknown"),
        reference: fc.constantFrom("att_unknown", ""),
        merchant_reference: fc.string({ maxLength: 8 }),
        amount: fc.integer(),
        currency: fc.constantFrom("EUR", "???"),
        token: fc.constantFrom(...TOKENS),
        capture: fc.boolean(),
        status: fc.constantFrom("requires_action", "authorized", "succeeded", "failed", "canceled"),
        amount_captured: fc.integer(),
        failure_code: fc.option(fc.string({ maxLength: 8 })),
        failure_message: fc.option(fc.string({ maxLength: 8 }))
      })
    }),
    fc.jsonValue({ maxDepth: 2 })
  )
})

const sign = (secret: string, body: string) => {
  const t = Math.floor(Date.now() / 1000)
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`
}

const encodeQuery = (pairs: ReadonlyArray<readonly [string, string]>) =>
  pairs.length === 0 ? "" : `?${pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join("&")}`

/** Query text added to a valid query: unknown, malformed, out of range, repeated, foreign. */
const badQuery = (context: FuzzContext): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      "x_unknown=1",
      "limit=0",
      "limit=101",
      "limit=-1",
      "limit=abc",
      "limit=1.5",
      "limit=1e3",
      "limit=",
      "limit=99999999999999999999999",
      "limit=1&limit=2",
      "limit=0x10",
      "limit=%2B5",
      "limit=005",
      "__proto__=x",
      "constructor=x",
      "currency=eur%7CXXX",
      "starting_after=",
      "starting_after=%00",
      "starting_after=pay_00000000000000000000000000",
      `starting_after=${"x".repeat(300)}`,
      "created[gte]=2026-13-45",
      "created[gte]=99999-01-01T00:00:00Z",
      "created[lte]=-1",
      "status=nope",
      "type=%ED%A0%80",
      "currency=%00",
      "payment_id=%FF",
      "%ZZ=%ZZ",
      "&&=&",
      "limit[]=1",
      "limit[a]=1"
    ),
    fc.constantFrom(...context.objects.ids.event, ...context.objects.ids.refund).map((id) => `starting_after=${id}`),
    fc.tuple(fc.constantFrom("status", "provider", "type", "endpoint_id", "customer_id"), fc.string({ maxLength: 10_000, unit: "binary" }))
      .map(([name, value]) => {
        try {
          return `${name}=${encodeURIComponent(value)}`
        } catch {
          return `${name}=%ED%A0%80`
        }
      })
  )

const withQuery = (target: string, extra: string) => `${target}${target.includes("?") ? "&" : "?"}${extra}`

/**
 * Requests for `operation`: valid ones built from its declared parameters and request schema (with
 * real ids in the path and a fresh Idempotency-Key), and mutations of each part: the body, the
 * headers, the query string and the path's ids.
 */
export const requestsFor = (operation: Operation, context: FuzzContext): fc.Arbitrary<FuzzRequest> => {
  const hints = hintsFor(context)
  const arbitrary = arbitraryOf(context.document, hints)
  const method = operation.method.toUpperCase()
  const pathParameters = parametersOf(operation, "path")
  const kinds = pathParameters.map((parameter) => {
    const kind = objectKindOf(operation.path, parameter.name)
    if (kind === undefined) throw new Error(`no object kind for {${parameter.name}} in ${operation.path}: map it in ObjectFixtures`)
    return kind
  })
  const realIds = fc.tuple(...kinds.map((kind) => fc.constantFrom(...context.objects.ids[kind])))
  const otherIds = Object.entries(context.objects.ids).filter(([kind]) => !kinds.includes(kind as ObjectKind)).flatMap(([, ids]) => ids)
  const strangeIds = fc.tuple(...kinds.map(() => unknownId(otherIds)))
  const pathWith = (ids: ReadonlyArray<string>, encode: boolean) => {
    let path = operation.path
    pathParameters.forEach((parameter, index) => {
      path = path.replace(`{${parameter.name}}`, encode ? encodeURIComponent(ids[index]!) : ids[index]!)
    })
    return path
  }

  const queryParameters = parametersOf(operation, "query")
  const listKind = objectKindOf(`${operation.path}/{id}`, "id")
  const valueOf = (parameter: any): fc.Arbitrary<unknown> => {
    const own = arbitrary(parameter.schema)
    const hint = parameter.name === "starting_after" && listKind !== undefined
      ? fc.constantFrom(...context.objects.ids[listKind])
      : hints.byProperty?.[parameter.name]
    return hint === undefined ? own : fc.oneof({ arbitrary: hint, weight: 3 }, { arbitrary: own, weight: 1 })
  }
  const query = fc.tuple(...queryParameters.map((parameter) => fc.option(valueOf(parameter).map(String), { nil: undefined })))
    .map((values) => encodeQuery(values.flatMap((value, index) => value === undefined ? [] : [[queryParameters[index].name, value] as const])))

  const authenticated = (operation.spec.security ?? [{}]).length > 0
  const idempotency = parametersOf(operation, "header").find((parameter) => parameter.name === "idempotency-key")
  const freshKey = fc.oneof({ arbitrary: fc.uuid(), weight: 4 }, {
    arbitrary: fc.string({ minLength: 1, maxLength: 255, unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)) }),
    weight: 1
  })
  const keyHeader = idempotency === undefined
    ? fc.constant(undefined)
    : idempotency.required === true
    ? freshKey
    : fc.option(freshKey, { nil: undefined })
  const headers = keyHeader.map((key): Record<string, string> => ({
    ...(authenticated ? { authorization: `Bearer ${context.testKey}` } : {}),
    ...(key === undefined ? {} : { "idempotency-key": key })
  }))

  const schema = requestSchemaOf(operation)
  const rawBody = operation.spec.requestBody?.content?.["application/octet-stream"] !== undefined
  const validBody: fc.Arbitrary<unknown> | undefined = schema === undefined ? undefined : arbitrary(schema)
  type Parts = { target: string; headers: Record<string, string>; body: string | Uint8Array | undefined; contentType?: string }
  const valid: fc.Arbitrary<Parts> = fc.tuple(realIds, query, headers, validBody ?? fc.constant(undefined), sandboxWebhook, fc.boolean())
    .map(([ids, search, headerValues, body, webhook, signed]) => {
      if (rawBody) {
        const text = JSON.stringify(webhook)
        return {
          target: `${pathWith(ids, true)}${search}`,
          headers: signed ? { ...headerValues, "service-signature": sign(context.objects.pspWebhookSecret, text) } : headerValues,
          body: text,
          contentType: "application/json"
        }
      }
      return { target: `${pathWith(ids, true)}${search}`, headers: headerValues, body: body === undefined ? undefined : JSON.stringify(body) }
    })

  const request = (label: string, parts: Parts): FuzzRequest => ({
    label,
    method,
    target: parts.target,
    headers: {
      ...parts.headers,
      ...(parts.body === undefined ? {} : { "content-type": parts.contentType ?? "application/json" })
    },
    ...(parts.body === undefined ? {} : { body: parts.body })
  })

  const variants: Array<{ arbitrary: fc.Arbitrary<FuzzRequest>; weight: number }> = [
    { arbitrary: valid.map((parts) => request("valid", parts)), weight: 4 }
  ]
  if (validBody !== undefined || rawBody) {
    const base = validBody ?? sandboxWebhook
    variants.push({
      arbitrary: fc.tuple(valid, mutatedBody(base, schema, context.document)).map(([parts, mutation]) =>
        request(`body: ${mutation.label}`, {
          ...parts,
          body: mutation.body,
          ...(mutation.contentType === undefined ? {} : { contentType: mutation.contentType })
        })
      ),
      weight: 3
    })
  }
  const badHeaders: fc.Arbitrary<[string, Record<string, string | undefined>]> = fc.constantFrom<[string, Record<string, string | undefined>]>(
    ["no key", { authorization: undefined }],
    ["empty bearer", { authorization: "Bearer " }],
    ["unknown key", { authorization: `Bearer sk_test_${"0".repeat(40)}` }],
    ["live key", { authorization: `Bearer ${context.liveKey}` }],
    ["basic auth", { authorization: `Basic ${Buffer.from(`${context.testKey}:`).toString("base64")}` }],
    ["empty Idempotency-Key", { "idempotency-key": "" }],
    ["blank Idempotency-Key", { "idempotency-key": " " }],
    ["long Idempotency-Key", { "idempotency-key": "k".repeat(256) }],
    ["Latin-1 Idempotency-Key", { "idempotency-key": "caf\u00e9" }],
    ["reused Idempotency-Key", { "idempotency-key": "fuzz-reused-key" }],
    ["unknown Service-Version", { "service-version": "2020-01-01" }],
    ["empty Service-Version", { "service-version": "" }],
    ["Accept XML", { accept: "application/xml" }]
  )
  variants.push({
    arbitrary: fc.tuple(valid, badHeaders).map(([parts, [label, change]]) => {
      const merged: Record<string, string> = { ...parts.headers }
      for (const [name, value] of Object.entries(change)) {
        if (value === undefined) delete merged[name]
        else merged[name] = value
      }
      return request(`header: ${label}`, { ...parts, headers: merged })
    }),
    weight: 2
  })
  variants.push({
    arbitrary: fc.tuple(valid, badQuery(context)).map(([parts, extra]) =>
      request(`query: ${extra.slice(0, 40)}`, { ...parts, target: withQuery(parts.target, extra) })
    ),
    weight: 1
  })
  if (pathParameters.length > 0) {
    variants.push({
      arbitrary: fc.tuple(valid, strangeIds).map(([parts, ids]) => {
        const search = parts.target.includes("?") ? parts.target.slice(parts.target.indexOf("?")) : ""
        return request(`path: ${ids.join(",").slice(0, 40)}`, { ...parts, target: `${pathWith(ids, false)}${search}` })
      }),
      weight: 2
    })
  }
  // NUL, half surrogate pairs and bytes that are not UTF-8 are refused (400) wherever they are, before anything stores them.
  if (pathParameters.length > 0) {
    const parameterSegments = operation.path.split("/").flatMap((segment, index) => /^\{.+\}$/.test(segment) ? [index] : [])
    variants.push({
      arbitrary: fc.tuple(valid, fc.constantFrom(...parameterSegments), fc.nat(), unstorableUrlPart).map(([parts, position, at, bad]) => {
        const real = parts.target.split("?")[0]!.split("/")
        const id = real[position]!
        const cut = at % (id.length + 1)
        real[position] = `${id.slice(0, cut)}${bad}${id.slice(cut)}`
        const search = parts.target.includes("?") ? parts.target.slice(parts.target.indexOf("?")) : ""
        return { ...request(`unstorable path: ${bad.slice(0, 40)}`, { ...parts, target: `${real.join("/")}${search}` }), expectStatus: 400 }
      }),
      weight: 1
    })
  }
  const queryNames = [...queryParameters.map((parameter: any) => String(parameter.name)), "x_unknown"]
  variants.push({
    arbitrary: fc.tuple(valid, fc.constantFrom(...queryNames), unstorableUrlPart, fc.boolean()).map(([parts, name, bad, inName]) => {
      const pair = inName ? `${encodeURIComponent(name)}${bad}=1` : `${encodeURIComponent(name)}=${bad}`
      return { ...request(`unstorable query: ${pair.slice(0, 40)}`, { ...parts, target: withQuery(parts.target, pair) }), expectStatus: 400 }
    }),
    weight: 1
  })
  if (rawBody) {
    // Signed with the connection's secret: the signature holds, the content cannot be stored.
    const fields: ReadonlyArray<(webhook: any, text: string) => void> = [
      (webhook, text) => {
        webhook.id = text
      },
      (webhook, text) => {
        webhook.type = text
      },
      (webhook, text) => {
        if (webhook.data?.charge !== undefined) webhook.data.charge.reference = text
        else webhook.id = text
      },
      (webhook, text) => {
        if (webhook.data?.charge !== undefined) webhook.data.charge.failure_message = text
        else webhook.data = { [text]: 1 }
      }
    ]
    variants.push({
      arbitrary: fc.tuple(valid, sandboxWebhook, fc.constantFrom(...fields), unstorableText).map(([parts, webhook, put, text]) => {
        const changed = structuredClone(webhook)
        put(changed, text)
        const body = JSON.stringify(changed)
        return {
          ...request(`unstorable signed webhook: ${JSON.stringify(text)}`, {
            ...parts,
            headers: { ...parts.headers, "service-signature": sign(context.objects.pspWebhookSecret, body) },
            body,
            contentType: "application/json"
          }),
          expectStatus: 400
        }
      }),
      weight: 2
    })
  }
  // Random numbers can look like card numbers; the secret scan must only find the ones the service leaked.
  return fc.oneof(...variants).filter((request) =>
    cardNumbersIn(request.target).length === 0 && (typeof request.body !== "string" || cardNumbersIn(request.body).length === 0)
  )
}
