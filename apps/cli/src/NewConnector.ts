import { Data, Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

/**
 * `dev new-connector NAME`: a new PSP's folder written from the kit's living template (the
 * `template` connector, its fake and its contract test, which typecheck with the rest of the
 * repository), with the name put in. Nothing is registered: the operator adds one line to the
 * catalog when the connector passes its contract.
 */

/** The name is not usable as a connection type and folder name. */
export class ConnectorNameInvalid extends Data.TaggedError("ConnectorNameInvalid")<{ readonly name: string }> {}
/** Something of that name is already there: nothing is overwritten. */
export class ConnectorExists extends Data.TaggedError("ConnectorExists")<{ readonly name: string; readonly path: string }> {}

/** The template is read from a clone of the repository: a bundled build of the tool has none. */
export class ConnectorTemplateMissing extends Data.TaggedError("ConnectorTemplateMissing")<{ readonly path: string }> {}

/** A connection type is what merchants write in `type`: lower case letters and digits, a letter first. */
const VALID_NAME = /^[a-z][a-z0-9]{1,29}$/

/** The repository this tool runs from: the template is read there. */
export const REPOSITORY_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..")

/** The template's files, where they are written for `name` (its Pascal-case form `title`). */
const FILES = (name: string, title: string): ReadonlyArray<readonly [from: string, to: string]> => [
  ["packages/connectors/src/template/Connector.ts", `packages/connectors/src/${name}/Connector.ts`],
  ["packages/connectors/src/template/Settings.ts", `packages/connectors/src/${name}/Settings.ts`],
  ["packages/connectors/src/template/Wire.ts", `packages/connectors/src/${name}/Wire.ts`],
  ["packages/connectors/src/template/Api.ts", `packages/connectors/src/${name}/Api.ts`],
  ["packages/connectors/src/template/Webhooks.ts", `packages/connectors/src/${name}/Webhooks.ts`],
  ["packages/testing/src/psp/template/Fake.ts", `packages/testing/src/psp/${name}/Fake.ts`],
  ["packages/connectors/test/TemplateContract.ts", `packages/connectors/test/${title}Contract.test.ts`]
]

/** Where the testing package declares what other packages may import (the new fake joins it). */
const TESTING_INDEX = "packages/testing/src/index.ts"

/** The template's text for `name`: `template`, `Template` and `TEMPLATE` are the name in its three cases. */
export const fillTemplate = (text: string, name: string, title: string) =>
  text.replaceAll("TEMPLATE", name.toUpperCase()).replaceAll("Template", title).replaceAll("template", name)

export interface Scaffolded {
  readonly name: string
  readonly files: ReadonlyArray<string>
  readonly nextSteps: string
}

const nextSteps = (name: string, title: string) =>
  `Next steps:
  1. Write the fake from the PSP's document and testing guide: packages/testing/src/psp/${name}/Fake.ts
  2. Put the PSP's published API document in packages/testing/psp-documents/ and add it to
     packages/testing/src/psp/OpenApiContract.ts:
       static ${name} = () => new OpenApiContract("${name}.openapi.json", "3.0", "")
     and return OpenApiContract.${name}() from ${name}Document in packages/connectors/test/${title}Contract.test.ts
  3. Make the contract pass, one operation at a time (settings and live hosts in Settings.ts, shapes in Wire.ts):
       pnpm vitest run --project connectors packages/connectors/test/${title}Contract.test.ts
  4. Register it: in packages/connectors/src/ConnectorCatalogLive.ts add
       import { ${name}Definition } from "./${name}/Connector.js"
     and, among the connection types,
       ${name}: ${name}Definition(http),
     then add "${name}" to CONNECTION_TYPES in packages/core/src/domain/providers/ConnectionTypes.ts (the API reference's list)`

/** Writes the new connector's files under `targetRoot`, reading the template under `sourceRoot`. */
export const newConnector = (options: { readonly name: string; readonly sourceRoot: string; readonly targetRoot: string }) =>
  Effect.gen(function*() {
    const { name } = options
    if (!VALID_NAME.test(name)) return yield* new ConnectorNameInvalid({ name })
    const title = `${name[0]!.toUpperCase()}${name.slice(1)}`
    const files = FILES(name, title)
    // The template's own name, an existing connector or a half-made one: all refused before anything is written.
    const taken = [`packages/connectors/src/${name}`, `packages/testing/src/psp/${name}`, ...files.map(([, to]) => to)]
      .find((relative) => name === "template" || fs.existsSync(path.join(options.targetRoot, relative)))
    if (taken !== undefined) return yield* new ConnectorExists({ name, path: taken })
    const missing = files.map(([from]) => path.join(options.sourceRoot, from)).find((file) => !fs.existsSync(file))
    if (missing !== undefined) return yield* new ConnectorTemplateMissing({ path: missing })
    const written = yield* Effect.sync(() =>
      files.map(([from, to]) => {
        const text = fs.readFileSync(path.join(options.sourceRoot, from), "utf8")
        const target = path.join(options.targetRoot, to)
        fs.mkdirSync(path.dirname(target), { recursive: true })
        fs.writeFileSync(target, fillTemplate(text, name, title), { flag: "wx" })
        return to
      })
    )
    // The contract test imports the fake through the testing package's front door.
    const testingIndex = path.join(options.targetRoot, TESTING_INDEX)
    if (fs.existsSync(testingIndex)) {
      yield* Effect.sync(() => fs.appendFileSync(testingIndex, `export { type Fake${title}, fake${title} } from "./psp/${name}/Fake.js"\n`))
    }
    return { name, files: written, nextSteps: nextSteps(name, title) } satisfies Scaffolded
  })
