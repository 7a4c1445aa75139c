import type { ExamplePreparation, ExampleRequest, ExampleResponse, StoredExample } from "@orchestrator/api"
import { Effect } from "effect"
import { completeChallenge, type Keys, oversizedBody, send } from "./ExampleRequests.js"
import { LIVE_RATE_LIMIT, workerCatchesUp } from "./ExampleServer.js"
import type { ScenarioStep } from "./ScenarioStep.js"

/** One recorded example, still with the recording's address in it. */
export interface Recorded extends StoredExample {
  readonly operationId: string
}

/**
 * Spends a live key's budget: five seconds' worth of requests at once, so the next one is over the
 * limit even on a machine slow enough that the budget refills a little meanwhile.
 */
export const exhaustRateLimit = (baseUrl: string, keys: Keys, request: ExampleRequest) =>
  Effect.forEach(Array.from({ length: LIVE_RATE_LIMIT * 5 }), () => send(baseUrl, keys, request), { discard: true })

/** Sends `request` after its preparation; `prepared` is what the preparation produced (a return token). */
export const sendPrepared = (
  baseUrl: string,
  keys: Keys,
  request: (prepared: string | undefined) => ExampleRequest,
  prepare: ExamplePreparation | undefined
) =>
  Effect.gen(function*() {
    const prepared = prepare !== undefined && "completeChallenge" in prepare ? yield* completeChallenge(prepare.completeChallenge) : undefined
    const sent = request(prepared)
    if (prepare !== undefined && "exhaustRateLimit" in prepare) yield* exhaustRateLimit(baseUrl, keys, sent)
    const body = prepare !== undefined && "oversizedBody" in prepare ? oversizedBody() : undefined
    const response = yield* send(baseUrl, keys, sent, body)
    return { request: sent, response, prepared }
  })

/** A mismatch stops the recording: an example must show what its summary says. */
const expectStatus = (what: string, expected: number, request: ExampleRequest, response: ExampleResponse) => {
  if (response.status === expected) return Effect.void
  const message = `${what}: expected ${expected}, got ${response.status} for ${request.method} ${request.path} ${JSON.stringify(response.body).slice(0, 300)}`
  // EXAMPLES_SURVEY=1 lists every mismatch in one run (and writes nothing), for whoever edits the scenario.
  return process.env.EXAMPLES_SURVEY === "1" ? Effect.sync(() => console.error(message)) : Effect.dieMessage(message)
}

/** Runs the scenario in order on a fresh merchant, recording every request and answer. */
export const recordScenario = (baseUrl: string, keys: Keys, steps: ReadonlyArray<ScenarioStep>) =>
  Effect.gen(function*() {
    const saved = new Map<string, unknown>()
    const lookup = (name: string) => {
      if (!saved.has(name)) throw new Error(`no step saved ${name}`)
      return saved.get(name)
    }
    const recorded: Array<Recorded> = []
    for (const step of steps) {
      yield* workerCatchesUp(step.operationId)
      const prepare = step.prepare?.(lookup)
      const { request, response } = yield* sendPrepared(baseUrl, keys, (prepared) => step.request(lookup, prepared), prepare)
      yield* expectStatus(`${step.operationId} ${step.name}`, step.status, request, response)
      if (step.saveAs !== undefined) saved.set(step.saveAs, response.body)
      recorded.push({
        operationId: step.operationId,
        name: step.name,
        summary: step.summary,
        step: recorded.length,
        request,
        ...(prepare === undefined ? {} : { prepare }),
        ...(step.hidden === true ? { hidden: true as const } : {}),
        response
      })
    }
    return recorded
  })

/** Records further examples after the scenario's, numbered after them. */
export const recordMore = (
  baseUrl: string,
  keys: Keys,
  first: number,
  cases: ReadonlyArray<Omit<Recorded, "step" | "response"> & { readonly status: number }>
) =>
  Effect.forEach(cases, ({ status, ...example }, index) =>
    Effect.gen(function*() {
      yield* workerCatchesUp(example.operationId)
      const { response } = yield* sendPrepared(baseUrl, keys, () => example.request, example.prepare)
      yield* expectStatus(`${example.operationId} ${example.name}`, status, example.request, response)
      return { ...example, step: first + index, response } satisfies Recorded
    }))
