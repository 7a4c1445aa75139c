import { OpenApi } from "@effect/platform"
import { describe, expect, it as plain, layer } from "@effect/vitest"
import { Api, storedEvents, type StoredExample, withStoredExamples } from "@orchestrator/api"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { EVENTS_DIR, EXAMPLES_DIR, readOperationFiles } from "./examples/ExampleFiles.js"
import { sendPrepared } from "./examples/ExampleRecording.js"
import { IdMap, shapeDifferences } from "./examples/ExampleReplay.js"
import { exampleMerchant, exampleServer, workerCatchesUp } from "./examples/ExampleServer.js"
import { operationsOf } from "./examples/GenericCases.js"

/**
 * Statuses an operation declares that have no example, each with why the sandbox cannot produce it.
 * `*` applies to every operation.
 */
const UNREACHABLE: Readonly<Record<string, Readonly<Record<number, string>>>> = {
  "*": {
    500: "a bug on our side: no request is meant to reach it",
    409: "idempotency_key_in_use needs two requests with one key at the same moment; Idempotency.test.ts races them"
  },
  "health.readyz": { 503: "the database must be unreachable" },
  "payments.capture": {
    402: "the sandbox never refuses a capture it authorized",
    504: "the PSP must stay silent past the call deadline; PspTimeouts.test.ts waits for it"
  },
  "payments.cancel": {
    402: "the sandbox never refuses to release an authorization",
    504: "the PSP must stay silent past the call deadline; PspTimeouts.test.ts waits for it"
  },
  "paymentReturn.return": {
    200: "the page shown when the payment has no return_url of its own (a subscription's first charge on a card that asks for 3D Secure)",
    400: "the return answers 404 to anything without the token signed for the payment, before reading anything else"
  },
  "paymentMethods.create": {
    422: "raw card data is the operator's to allow per organization, and the example shop is allowed; PaymentMethods.test.ts shows the refusal"
  },
  "providerWebhooks.receive": { 200: "a PSP's webhook carries the PSP's own signature (5 minutes valid) and charge references; the sandbox sends its own" }
}

const unreachable = (operationId: string, status: number) => UNREACHABLE[operationId]?.[status] ?? UNREACHABLE["*"]![status]

const files = readOperationFiles()
const stored = files
  .flatMap((file) => file.examples.map((example) => ({ ...example, operationId: file.operationId })))
  .sort((a, b) => a.step - b.step)

const document: any = OpenApi.fromApi(Api)

layer(exampleServer(), { excludeTestServices: true, timeout: "120 seconds" })("the stored examples", (it) => {
  it.effect("replay on a fresh service with the status and the shape they show", () =>
    Effect.gen(function*() {
      const { baseUrl, keys } = yield* exampleMerchant
      const ids = new IdMap()
      const failures: Array<string> = []
      for (const example of stored) {
        yield* workerCatchesUp(example.operationId)
        const { response: answer } = yield* sendPrepared(baseUrl, keys, (prepared) => {
          // A 3D Secure return's token comes from the challenge just completed, not from an answer.
          if (prepared !== undefined) ids.set(example.request.query?.token ?? "", prepared)
          return ids.request(example.request)
        }, ids.preparation(example.prepare))
        const label = `${example.operationId} ${example.name} (step ${example.step})`
        if (answer.status !== example.response.status) {
          failures.push(`${label}: ${answer.status}, the example shows ${example.response.status}: ${JSON.stringify(answer.body).slice(0, 300)}`)
          continue
        }
        failures.push(...shapeDifferences(example.response.body, answer.body).map((difference) => `${label}: ${difference}`))
        ids.learn(example.response.body, answer.body)
        ids.learn(example.response.headers ?? {}, answer.headers ?? {})
      }
      expect(failures).toEqual([])
    }))
})

const examplesOf = (operationId: string): ReadonlyArray<StoredExample> => files.find((file) => file.operationId === operationId)?.examples ?? []

describe("the OpenAPI document's examples", () => {
  plain("every operation has a request and a response example, and every status it declares an example or a reason", () => {
    const missing: Array<string> = []
    for (const operation of operationsOf(document)) {
      const raw = document.paths[operation.path][operation.method.toLowerCase()]
      const own = examplesOf(operation.operationId).filter((example) => example.hidden !== true)
      const successes = operation.statuses.filter((status) => status < 400 && unreachable(operation.operationId, status) === undefined)
      if (successes.length > 0 && !own.some((example) => example.response.status < 400)) {
        missing.push(`${operation.operationId}: no example that succeeds`)
      }
      const bodies = Object.values<{ examples?: object }>(raw.requestBody?.content ?? {})
      if (bodies.some((content) => Object.keys(content.examples ?? {}).length === 0)) {
        missing.push(`${operation.operationId}: no request body example`)
      }
      if ((raw.parameters ?? []).some((parameter: { example?: unknown; required?: boolean }) => parameter.required && parameter.example === undefined)) {
        missing.push(`${operation.operationId}: a required parameter without an example`)
      }
      for (const status of operation.statuses) {
        const content = raw.responses[status]?.content?.["application/json"]
        const shown = content === undefined
          ? own.some((example) => example.response.status === status)
          : Object.keys(content.examples ?? {}).length > 0
        if (!shown && unreachable(operation.operationId, status) === undefined) missing.push(`${operation.operationId}: ${status}`)
      }
    }
    expect(missing).toEqual([])
  })

  plain("the reasons name only statuses that really have no example", () => {
    const stale = Object.entries(UNREACHABLE).filter(([operationId]) => operationId !== "*").flatMap(([operationId, reasons]) =>
      Object.keys(reasons).map(Number).filter((status) => examplesOf(operationId).some((example) => example.response.status === status))
        .map((status) => `${operationId} ${status}`)
    )
    expect(stale).toEqual([])
  })

  plain("hold no API key: requests are stored without one, and no answer shows one", () => {
    const files = [
      ...fs.readdirSync(EXAMPLES_DIR).filter((name) => name.endsWith(".json")).map((name) => path.join(EXAMPLES_DIR, name)),
      ...fs.readdirSync(EVENTS_DIR).map((name) => path.join(EVENTS_DIR, name))
    ]
    const withKey = files.filter((file) => /sk_(test|live)_[A-Za-z0-9]{8,}/.test(fs.readFileSync(file, "utf8")))
    expect(withKey).toEqual([])
  })

  plain("put each event type's payload into the webhooks section, when the document has one for that type", () => {
    const event = storedEvents.find((stored) => stored.type === "payment.succeeded")!
    const spec = withStoredExamples({
      paths: {},
      webhooks: { "payment.succeeded": { post: { requestBody: { content: { "application/json": { schema: {} } } } } } }
    })
    expect(spec.webhooks["payment.succeeded"].post.requestBody.content["application/json"].examples["payment.succeeded"].value)
      .toEqual(event.payload)
    expect((event.payload as { type: string }).type).toBe("payment.succeeded")
    expect(withStoredExamples({ paths: {} })).toEqual({ paths: {} })
  })
})
