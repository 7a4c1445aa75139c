import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { runCli } from "./support/RunCli.js"

describe("org create: the organization's name", () => {
  it("an empty, huge, control-laden or taken name: one line on stderr and exit code 2", async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "orchestrator-cli-names-"))
    const env = { ORCHESTRATOR_DATA_DIR: dataDir, LOG_LEVEL: "warn" }
    const create = (name: string) => runCli(["org", "create", "--name", name], env)

    // Trimmed before it is kept.
    const created = await create("  Acme Shop  ")
    expect([created.code, created.stderr]).toEqual([0, ""])
    expect(created.stdout).toMatch(/Created organization org_\w+ \(Acme Shop\)/)
    // The next step names the command as it is typed in the repository.
    expect(created.stdout).toMatch(/Next: bin\/orchestrator keys create --org org_\w+/)

    const refused: Array<[string, string]> = [
      ["", "invalid organization name: the name is empty"],
      ["   ", "invalid organization name: the name is empty"],
      ["x".repeat(5000), "invalid organization name: the name has 5000 characters, at most 100 are allowed"],
      ["Acme\u001b[31m red", "invalid organization name: the name contains a control character"],
      ["Acme Shop", "an organization named \"Acme Shop\" already exists"],
      [" Acme Shop\t", "an organization named \"Acme Shop\" already exists"]
    ]
    for (const [name, line] of refused) {
      const answer = await create(name)
      expect([name.slice(0, 20), answer.code, answer.stderr]).toEqual([name.slice(0, 20), 2, `${line}\n`])
      expect(answer.stdout).toBe("")
    }

    // 100 characters (by what the eye counts: an emoji is one) is the longest name kept.
    const longest = `${"é".repeat(98)}🙂x`
    expect((await create(longest)).code).toBe(0)
    expect((await create(`${longest}y`)).code).toBe(2)
  }, 180_000)
})
