import type { StoredExample } from "./StoredExample.js"
import { storedEvents, storedOperations } from "./StoredExamples.js"

/* eslint-disable @typescript-eslint/no-explicit-any -- the document is walked as the JSON it is */

const byOperation = new Map(storedOperations.map((file) => [file.operationId, file]))
const shared = byOperation.get("*")?.examples ?? []

/** Successes first, so the request a reader sees first (and "Send"s) is one that works. */
const successesFirst = (examples: ReadonlyArray<StoredExample>) =>
  [...examples].sort((a, b) => Number(a.response.status >= 400) - Number(b.response.status >= 400) || a.step - b.step)

const exampleObjects = (examples: ReadonlyArray<StoredExample>, value: (example: StoredExample) => unknown) =>
  Object.fromEntries(examples.map((example) => [example.name, { summary: example.summary, value: value(example) }]))

/** A form's fields as the document shows them: each file by its content. */
const formExample = (example: StoredExample) =>
  Object.fromEntries(Object.entries(example.request.form ?? {}).map(([name, value]) => [name, typeof value === "string" ? value : value.text]))

const withRequestExamples = (operation: any, examples: ReadonlyArray<StoredExample>) => {
  const withBody = successesFirst(examples).filter((example) =>
    (example.request.body !== undefined || example.request.form !== undefined) && example.response.status !== 401
  )
  if (withBody.length === 0) return
  // A body taken as raw bytes (a PSP's signed webhook) shows the JSON text that is sent; a form, its fields and its files' text.
  for (const [type, content] of Object.entries<any>(operation.requestBody?.content ?? {})) {
    content.examples = exampleObjects(withBody, (example) =>
      type === "multipart/form-data"
        ? formExample(example)
        : type === "application/json"
        ? example.request.body
        : JSON.stringify(example.request.body))
  }
}

const withResponseExamples = (operation: any, examples: ReadonlyArray<StoredExample>) => {
  for (const [status, response] of Object.entries<any>(operation.responses ?? {})) {
    const content = response?.content?.["application/json"]
    if (content === undefined) continue
    const own = examples.filter((example) => String(example.response.status) === status && example.response.body !== undefined)
    const chosen = own.length > 0 ? own : shared.filter((example) => String(example.response.status) === status)
    if (chosen.length > 0) content.examples = exampleObjects(chosen, (example) => example.response.body)
  }
}

/** Each parameter's value in the first working request: a real id, a real filter, an Idempotency-Key. */
const withParameterExamples = (operation: any, path: string, examples: ReadonlyArray<StoredExample>) => {
  const first = successesFirst(examples)[0]
  if (first === undefined) return
  const template = path.split("/")
  const actual = first.request.path.split("/")
  for (const parameter of operation.parameters ?? []) {
    const value = parameter.in === "path"
      ? actual[template.indexOf(`{${parameter.name}}`)]
      : parameter.in === "query"
      ? first.request.query?.[parameter.name]
      : parameter.in === "header"
      ? first.request.headers?.[parameter.name.toLowerCase()]
      : undefined
    if (value !== undefined) parameter.example = value
  }
}

/**
 * Puts the examples `pnpm docs:examples` recorded from the sandbox into the document: request bodies,
 * responses by status (the shared ones where an operation has none of its own) and parameters; and
 * each event type's payload into `webhooks`, where that section has the type.
 */
export const withStoredExamples = (spec: Record<string, any>) => {
  for (const path of Object.values<any>(spec.paths ?? {})) {
    for (const operation of Object.values<any>(path)) {
      if (operation?.responses === undefined) continue
      const file = byOperation.get(operation.operationId)
      const examples = (file?.examples ?? []).filter((example) => example.hidden !== true)
      withRequestExamples(operation, examples)
      withResponseExamples(operation, examples)
      if (file !== undefined) withParameterExamples(operation, file.path, examples)
    }
  }
  for (const event of storedEvents) {
    const content = spec.webhooks?.[event.type]?.post?.requestBody?.content?.["application/json"]
    if (content !== undefined) content.examples = { [event.type]: { summary: `A ${event.type} event`, value: event.payload } }
  }
  return spec
}

/* eslint-enable @typescript-eslint/no-explicit-any */
