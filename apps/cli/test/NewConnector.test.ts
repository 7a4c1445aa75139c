import { Effect, Either } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { ConnectorExists, ConnectorNameInvalid, ConnectorTemplateMissing, newConnector, REPOSITORY_ROOT } from "../src/NewConnector.js"
import { runCli } from "./support/RunCli.js"

const tempRoot = () => fs.mkdtempSync(path.join(os.tmpdir(), "orchestrator-kit-"))
const scaffold = (name: string, targetRoot: string) => Effect.runSync(Effect.either(newConnector({ name, sourceRoot: REPOSITORY_ROOT, targetRoot })))
const filesUnder = (root: string): ReadonlyArray<string> =>
  fs.existsSync(root) ? fs.readdirSync(root, { recursive: true, encoding: "utf8" }).filter((entry) => fs.statSync(path.join(root, entry)).isFile()).sort() : []

describe("dev new-connector", () => {
  it("writes the connector's folder, its fake and its contract test, with the name put in everywhere", () => {
    const root = tempRoot()
    // The testing package's front door, which the new fake joins.
    fs.mkdirSync(path.join(root, "packages/testing/src"), { recursive: true })
    fs.writeFileSync(path.join(root, "packages/testing/src/index.ts"), "export { fakeStripe } from \"./psp/FakeStripe.js\"\n")
    const made = scaffold("acmepay", root)
    if (Either.isLeft(made)) return expect.fail(made.left._tag)
    expect(fs.readFileSync(path.join(root, "packages/testing/src/index.ts"), "utf8").split("\n")).toContain(
      "export { type FakeAcmepay, fakeAcmepay } from \"./psp/acmepay/Fake.js\""
    )
    expect(filesUnder(root)).toEqual(
      [
        "packages/connectors/src/acmepay/Api.ts",
        "packages/connectors/src/acmepay/Connector.ts",
        "packages/connectors/src/acmepay/Settings.ts",
        "packages/connectors/src/acmepay/Webhooks.ts",
        "packages/connectors/src/acmepay/Wire.ts",
        "packages/connectors/test/AcmepayContract.test.ts",
        "packages/testing/src/index.ts",
        "packages/testing/src/psp/acmepay/Fake.ts"
      ].map((file) => file.split("/").join(path.sep)).sort()
    )
    const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8")
    const connector = read("packages/connectors/src/acmepay/Connector.ts")
    expect(connector).toContain("export const acmepayDefinition = (http: PspHttp[\"Type\"]): ConnectorDefinition<AcmepaySettings>")
    expect(connector).toContain("the Acmepay connector does not implement ${operation} yet")
    expect(read("packages/connectors/src/acmepay/Settings.ts")).toContain("export const ACMEPAY_LIVE_HOSTS")
    const test = read("packages/connectors/test/AcmepayContract.test.ts")
    expect(test).toContain("import { makeAcmepayConnector } from \"../src/acmepay/Connector.js\"")
    expect(test).toMatch(/import \{[^}]*\bfakeAcmepay\b[^}]*\} from "@orchestrator\/testing"/)
    expect(test).toContain("connectorContract({")
    // No trace of the template's own name is left in any file.
    for (const file of filesUnder(root)) expect([file, /template/i.test(read(file))]).toEqual([file, false])
    expect(made.right.nextSteps).toContain("acmepay: acmepayDefinition(http),")
    expect(made.right.nextSteps).toContain("static acmepay = () => new OpenApiContract(")
  })

  it("refuses a name in use or not usable as a connection type, and writes nothing", () => {
    const root = tempRoot()
    fs.mkdirSync(path.join(root, "packages/connectors/src/stripe"), { recursive: true })
    const refused = (name: string) => {
      const outcome = scaffold(name, root)
      return Either.isLeft(outcome) ? outcome.left : undefined
    }
    expect(refused("stripe")).toEqual(new ConnectorExists({ name: "stripe", path: "packages/connectors/src/stripe" }))
    expect(refused("template")).toBeInstanceOf(ConnectorExists)
    for (const name of ["Acme", "1pay", "a", "acme-pay", "acme_pay", "../acme", "acme pay", "", "x".repeat(31)]) {
      expect([name, refused(name)]).toEqual([name, new ConnectorNameInvalid({ name })])
    }
    expect(filesUnder(root)).toEqual([])
    // A half-made one (its fake already there) is refused too, and left as it was.
    fs.mkdirSync(path.join(root, "packages/testing/src/psp/acmepay"), { recursive: true })
    fs.writeFileSync(path.join(root, "packages/testing/src/psp/acmepay/Fake.ts"), "mine")
    expect(refused("acmepay")).toEqual(new ConnectorExists({ name: "acmepay", path: "packages/testing/src/psp/acmepay" }))
    expect(filesUnder(root)).toEqual([path.join("packages", "testing", "src", "psp", "acmepay", "Fake.ts")])
  })

  it("says where it looked when the template is not there (a build without the sources), and writes nothing", () => {
    const root = tempRoot()
    const outcome = Effect.runSync(Effect.either(newConnector({ name: "acmepay", sourceRoot: tempRoot(), targetRoot: root })))
    expect(Either.isLeft(outcome) && outcome.left).toBeInstanceOf(ConnectorTemplateMissing)
    expect(filesUnder(root)).toEqual([])
  })

  // Through bin/orchestrator, as a developer runs it: the tool starts from its sources (tsx), which
  // on shared cores can take a minute per start.
  it("from the command line: the next steps on success; exit code 2 and one line on stderr when refused", async () => {
    const root = tempRoot()
    const made = await runCli(["dev", "new-connector", "acmepay", "--root", root], {})
    expect([made.code, made.stderr]).toEqual([0, ""])
    expect(made.stdout).toContain("packages/connectors/src/acmepay/Connector.ts")
    expect(made.stdout).toContain("packages/connectors/src/ConnectorCatalogLive.ts")
    expect(made.stdout).toContain("acmepay: acmepayDefinition(http),")
    expect(made.stdout).toContain("packages/testing/src/psp/OpenApiContract.ts")
    expect(fs.existsSync(path.join(root, "packages/testing/src/psp/acmepay/Fake.ts"))).toBe(true)

    const again = await runCli(["dev", "new-connector", "acmepay", "--root", root], {})
    expect([again.code, again.stdout, again.stderr]).toEqual([2, "", "a connector named 'acmepay' already exists (packages/connectors/src/acmepay)\n"])
    const invalid = await runCli(["dev", "new-connector", "Acme-Pay", "--root", root], {})
    expect(invalid.code).toBe(2)
    expect(invalid.stderr.trimEnd().split("\n")).toEqual([expect.stringContaining("invalid connector name \"Acme-Pay\"")])
  }, 300_000)
})
