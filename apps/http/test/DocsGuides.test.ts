import { freePort } from "@orchestrator/testing"
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { GUIDE_NAMES } from "../src/docs/Guides.js"
import { BLOCK_MARK, type GuideBlock, guideBlocks, guideScript, readGuide } from "./support/GuideBlocks.js"
import { type BlockOutput, type ShownOutput, unshown } from "./support/GuideOutputs.js"

const ROOT = new URL("../../../", import.meta.url)
const GUIDES = new URL("docs/guides/", ROOT)

/**
 * The service as a reader starts it (`bin/orchestrator start`: API, worker and the sandbox on an
 * embedded PGlite in a fresh data directory), with a known development key and the test-mode rate
 * limit raised, since the guides' commands follow each other faster than a person types.
 */
const startService = async (dataDir: string) => {
  const port = await freePort()
  const key = `sk_test_${randomBytes(24).toString("hex")}`
  // A reader's start is on the embedded database, whatever DATABASE_URL the suite runs with (CI sets
  // it, and on PostgreSQL test mode may not reach the guides' receiver on localhost).
  const { DATABASE_URL: _database, ...inherited } = process.env
  const child = spawn(path.join(ROOT.pathname, "bin/orchestrator"), ["start"], {
    env: {
      ...inherited,
      PORT: String(port),
      ORCHESTRATOR_DATA_DIR: dataDir,
      ORCHESTRATOR_DEV_API_KEY: key,
      ORCHESTRATOR_RATE_LIMIT_TEST: "10000",
      LOG_LEVEL: "warn"
    },
    stdio: ["ignore", "pipe", "inherit"]
  })
  await new Promise<void>((resolve, reject) => {
    let output = ""
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes("API: http://")) resolve()
    })
    child.on("exit", (code) => reject(new Error(`the service exited (${code}) before serving: ${output}`)))
  })
  return { child, url: `http://localhost:${port}`, key }
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.on("exit", () => resolve())
    child.kill("SIGTERM")
  })

const withoutPort = ({ PORT: _port, ...env }: NodeJS.ProcessEnv) => env

/** What a guide shows its blocks print: their `# → …` comments, and a `json` block right after a block that runs. */
const shownOf = (blocks: ReadonlyArray<GuideBlock>): Array<ShownOutput> =>
  blocks.flatMap((block, index) => {
    if (block.kind === "run") return block.shown.map((shown) => ({ block: block.line, ...shown }))
    const before = blocks[index - 1]
    return block.kind === "illustration" && block.language === "json" && before?.kind === "run"
      ? [{ block: before.line, line: block.line, lines: [block.code] }]
      : []
  })

/** Each block's printed output (the script marks where each begins) and the answers its `curl`s kept. */
const outputsOf = (stdout: string, records: string): Map<number, BlockOutput> => {
  const outputs = new Map<number, BlockOutput>()
  const files = readdirSync(records).sort((a, b) => Number(a.split("-")[1]) - Number(b.split("-")[1]))
  for (const part of stdout.split(BLOCK_MARK).slice(1)) {
    const line = Number(part.slice(0, part.indexOf("\n")))
    const answers = files.filter((file) => file.startsWith(`${line}-`)).map((file) => readFileSync(path.join(records, file), "utf8"))
    outputs.set(line, { printed: part.slice(part.indexOf("\n") + 1), answers })
  }
  return outputs
}

describe("the guides in docs/guides", () => {
  it("are exactly the files the docs serve, and every sh block either runs or says why not", () => {
    const files = readdirSync(GUIDES).filter((file) => file.endsWith(".md")).map((file) => file.replace(/\.md$/, ""))
    expect(files.sort()).toEqual([...GUIDE_NAMES].sort())
    for (const name of GUIDE_NAMES) {
      const blocks = guideBlocks(readGuide(GUIDES, name))
      expect(blocks.some((block) => block.kind === "run"), `${name}.md has no block that runs`).toBe(true)
      for (const block of blocks) {
        if (block.kind === "skip") expect(block.reason.length, `${name}.md:${block.line} no-run without a reason`).toBeGreaterThan(10)
        if (block.kind === "illustration") expect(block.language, `${name}.md:${block.line} a block without a language`).not.toBe("")
      }
    }
  })

  describe("run against a fresh service", () => {
    let service: Awaited<ReturnType<typeof startService>>
    let work: string

    beforeAll(async () => {
      work = mkdtempSync(path.join(tmpdir(), "orchestrator-guides-"))
      // The guides run from a checkout's root: `node examples/…` must find the repository's examples.
      symlinkSync(new URL("examples", ROOT).pathname, path.join(work, "examples"))
      service = await startService(path.join(work, "data"))
    })

    afterAll(async () => {
      if (service !== undefined) await stop(service.child)
      if (work !== undefined) rmSync(work, { recursive: true, force: true })
    })

    it("are served at /docs/guides/<name> under a policy that runs no script, linked from the index", async () => {
      const index = await fetch(`${service.url}/docs/guides`)
      const indexHtml = await index.text()
      for (const name of GUIDE_NAMES) {
        expect(indexHtml).toContain(`href="/docs/guides/${name}"`)
        const page = await fetch(`${service.url}/docs/guides/${name}`)
        const html = await page.text()
        expect(page.status).toBe(200)
        expect(page.headers.get("content-security-policy")).toContain("default-src 'none'")
        expect(page.headers.get("content-security-policy")).not.toContain("script-src")
        expect(html).toMatch(/<h1>.+<\/h1>/)
        expect(html).not.toContain("<script")
        // Links between guides are written `x.md` in the files and lead to the page `x`.
        expect(html).not.toMatch(/href="[a-z0-9-]+\.md/)
      }
      expect((await fetch(`${service.url}/docs/guides/no-such-guide`)).status).toBe(404)
      expect((await fetch(`${service.url}/docs`)).headers.get("content-security-policy")).toContain("script-src 'self'")
    })

    for (const name of GUIDE_NAMES) {
      it(`${name}.md: every runnable block succeeds, in order, and prints what the guide shows`, () => {
        const blocks = guideBlocks(readGuide(GUIDES, name))
        const records = path.join(work, `answers-${name}`)
        mkdirSync(records)
        const run = spawnSync("bash", ["-c", guideScript(name, blocks)], {
          cwd: work,
          // Without PORT: the guides' own servers (the webhook receiver) listen where the guide says.
          env: { ...withoutPort(process.env), ORCHESTRATOR_URL: service.url, ORCHESTRATOR_KEY: service.key, GUIDE_RECORDS: records },
          encoding: "utf8",
          timeout: 60_000
        })
        const where = run.stderr.split("\n").filter((line) => line.startsWith("--- ")).at(-1) ?? "before the first block"
        expect(run.status, `${where} failed:\n${run.stderr.slice(-2000)}\n--- output:\n${run.stdout.slice(-2000)}`).toBe(0)
        // What the guide says the commands print is what they printed: the words cannot drift from the service.
        expect(unshown(shownOf(blocks), outputsOf(run.stdout, records), service.url), `${name}.md`).toEqual([])
        // A guide leaves nothing behind in the reader's checkout.
        expect(readdirSync(work).filter((file) => !["data", "examples"].includes(file) && !file.startsWith("answers-"))).toEqual([])
      })
    }
  })
})
