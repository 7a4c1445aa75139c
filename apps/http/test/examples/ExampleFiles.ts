import type { EventExample, OperationExamples } from "@orchestrator/api"
import * as fs from "node:fs"
import * as path from "node:path"

/** Where the examples are stored: beside the contract they illustrate. */
export const EXAMPLES_DIR = path.resolve(import.meta.dirname, "../../../../packages/api/examples")
export const EVENTS_DIR = path.join(EXAMPLES_DIR, "events")
/** The module that gives the OpenAPI transform every stored file (written with them). */
export const INDEX_MODULE = path.resolve(import.meta.dirname, "../../../../packages/api/src/examples/StoredExamples.ts")

/** The file of the examples every operation shares (route not found, payload too large, rate limited). */
export const COMMON = "common"

const readJson = <A>(file: string): A => JSON.parse(fs.readFileSync(file, "utf8")) as A

export const readOperationFiles = (): ReadonlyArray<OperationExamples> =>
  fs.readdirSync(EXAMPLES_DIR).filter((name) => name.endsWith(".json")).sort().map((name) => readJson<OperationExamples>(path.join(EXAMPLES_DIR, name)))

export const readEventFiles = (): ReadonlyArray<EventExample> =>
  fs.readdirSync(EVENTS_DIR).filter((name) => name.endsWith(".json")).sort().map((name) => readJson<EventExample>(path.join(EVENTS_DIR, name)))

const identifier = (name: string) => name.replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? "").toUpperCase())

/** The index module: one JSON import per stored file, so the bundle carries them and nothing reads the disk at run time. */
export const indexModule = (operationFiles: ReadonlyArray<string>, eventFiles: ReadonlyArray<string>) => {
  const operations = operationFiles.map((file) => ({ name: `operation${identifier(`_${file.replace(/\.json$/, "")}`)}`, file }))
  const events = eventFiles.map((file) => ({ name: `event${identifier(`_${file.replace(/\.json$/, "")}`)}`, file }))
  return [
    "// Written by `pnpm docs:examples` (apps/http/test/examples/GenerateExamples.ts); do not edit.",
    ...operations.map(({ file, name }) => `import ${name} from "../../examples/${file}" with { type: "json" }`),
    ...events.map(({ file, name }) => `import ${name} from "../../examples/events/${file}" with { type: "json" }`),
    `import type { EventExample, OperationExamples } from "./StoredExample.js"`,
    "",
    "// The JSON's inferred types are wider than the interfaces (a string, not a literal); the recording wrote them to fit.",
    "/** Every operation's stored examples, and the shared ones (`operationId` `*`). */",
    `export const storedOperations = [${operations.map(({ name }) => name).join(", ")}] as ReadonlyArray<unknown> as ReadonlyArray<OperationExamples>`,
    "",
    "/** One stored payload per event type. */",
    `export const storedEvents = [${events.map(({ name }) => name).join(", ")}] as ReadonlyArray<unknown> as ReadonlyArray<EventExample>`,
    ""
  ].join("\n")
}
