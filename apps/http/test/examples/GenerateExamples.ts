/**
 * `pnpm docs:examples`: records the OpenAPI document's examples from the sandbox. Starts a fresh
 * service on an embedded database, runs the scenario (every operation, in every outcome the sandbox
 * can produce), adds each operation's 401, 400 and 404, and stores requests, answers and one payload
 * per event type in `packages/api/examples/`. Run it after changing an endpoint, and commit the files.
 */
import { OpenApi } from "@effect/platform"
import { Api, type EventExample, type OperationExamples } from "@orchestrator/api"
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { billingSteps, checkoutSteps, webhookSteps } from "./AccountScenario.js"
import { closingSteps } from "./ClosingScenario.js"
import { disputeSteps } from "./DisputeScenario.js"
import { COMMON, EVENTS_DIR, EXAMPLES_DIR, INDEX_MODULE, indexModule } from "./ExampleFiles.js"
import { type Recorded, recordMore, recordScenario } from "./ExampleRecording.js"
import { DOCUMENTED_BASE_URL, type Keys, replaceInStrings, send } from "./ExampleRequests.js"
import { exampleMerchant, exampleServer } from "./ExampleServer.js"
import { fileSteps } from "./FileScenario.js"
import { commonCases, genericCases, operationsOf } from "./GenericCases.js"
import { paymentMethodSteps } from "./PaymentMethodScenario.js"
import { paymentSteps, refundSteps, setupSteps } from "./PaymentScenario.js"

export const scenario = [
  ...setupSteps,
  ...paymentSteps,
  ...refundSteps,
  ...paymentMethodSteps,
  ...fileSteps,
  ...disputeSteps,
  ...webhookSteps,
  ...billingSteps,
  ...checkoutSteps,
  ...closingSteps
]

/** Every event the merchant's requests made, newest first, page by page. */
const allEvents = (baseUrl: string, keys: Keys) =>
  Effect.gen(function*() {
    const events: Array<any> = []
    let after: string | undefined = undefined
    for (;;) {
      const page = yield* send(baseUrl, keys, {
        method: "GET",
        path: "/v1/events",
        query: { limit: "100", ...(after === undefined ? {} : { starting_after: after }) }
      })

      const body = page.body as any
      events.push(...body.data)
      if (!body.has_more) return events
      after = body.data.at(-1).id
    }
  })

const record = Effect.gen(function*() {
  const { baseUrl, keys } = yield* exampleMerchant
  const operations = operationsOf(OpenApi.fromApi(Api))
  const scenarioExamples = yield* recordScenario(baseUrl, keys, scenario)
  const generic = yield* recordMore(baseUrl, keys, scenarioExamples.length, genericCases(operations, scenarioExamples))
  const recorded = [...scenarioExamples, ...generic]
  const common = yield* recordMore(baseUrl, keys, recorded.length, commonCases)
  const events = yield* allEvents(baseUrl, keys)
  const documented = <A>(value: A): A => replaceInStrings(value, baseUrl, DOCUMENTED_BASE_URL) as A
  return { operations, recorded: documented([...recorded, ...common]), events: documented(events) }
})

const writeJson = (file: string, value: unknown) => fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`)

const write = ({ events, operations, recorded }: Effect.Effect.Success<typeof record>) => {
  fs.rmSync(EXAMPLES_DIR, { recursive: true, force: true })
  fs.mkdirSync(EVENTS_DIR, { recursive: true })
  const files: Array<string> = []
  const byOperation = [...operations, { operationId: "*", method: "*", path: "*" }]
  for (const operation of byOperation) {
    const examples = recorded.filter((example) => example.operationId === operation.operationId)
      .map(({ operationId: _, ...example }: Recorded) => example)
    if (examples.length === 0) continue
    const file = `${operation.operationId === "*" ? COMMON : operation.operationId}.json`
    writeJson(
      path.join(EXAMPLES_DIR, file),
      { operationId: operation.operationId, method: operation.method, path: operation.path, examples } satisfies OperationExamples
    )
    files.push(file)
  }
  const eventFiles: Array<string> = []
  // Newest first: the last one of each type is the oldest, a plain one (before any later change).
  for (const event of [...events].reverse()) {
    const file = `${event.type}.json`
    if (eventFiles.includes(file)) continue
    writeJson(path.join(EVENTS_DIR, file), { type: event.type, payload: event } satisfies EventExample)
    eventFiles.push(file)
  }
  fs.writeFileSync(INDEX_MODULE, indexModule(files.sort(), eventFiles.sort()))
  // The house format (import order, line length), so `pnpm lint` passes on the written module as it is.
  execFileSync(path.resolve(EXAMPLES_DIR, "../../../node_modules/.bin/eslint"), ["--fix", INDEX_MODULE], { stdio: "inherit" })
  return { operations: files.length, examples: recorded.length, events: eventFiles.length }
}

Effect.runPromise(
  Effect.scoped(Effect.provide(
    Effect.map(record, (recorded) => process.env.EXAMPLES_SURVEY === "1" ? { operations: 0, examples: 0, events: 0 } : write(recorded)),
    exampleServer()
  ))
).then(
  (counts) => console.log(`Stored ${counts.examples} examples of ${counts.operations} files and ${counts.events} event types in ${EXAMPLES_DIR}`),
  (error) => {
    console.error(error)
    process.exitCode = 1
  }
)
