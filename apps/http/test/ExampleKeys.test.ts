import { storedOperations } from "@orchestrator/api"
import { readdirSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

const ROOT = new URL("../../../", import.meta.url)

/** Every Idempotency-Key a reader types by following the README, the walkthroughs or a guide. */
const documentedKeys = () => {
  const files = ["README.md", ...readdirSync(new URL("docs/", ROOT)).filter((file) => file.endsWith(".md")).map((file) => `docs/${file}`)]
    .concat(readdirSync(new URL("docs/guides/", ROOT)).map((file) => `docs/guides/${file}`))
  return new Set(files.flatMap((file) => [...readFileSync(new URL(file, ROOT), "utf8").matchAll(/Idempotency-Key: ([^"'\s\\]+)/gi)].map(([, key]) => key!)))
}

describe("the stored examples' Idempotency-Keys", () => {
  it("all start with example-, which /docs replaces with a fresh key at each send, and none is a key the README or a guide uses", () => {
    const keys = storedOperations.flatMap((file) => file.examples.flatMap((example) => example.request.headers?.["idempotency-key"] ?? []))
    expect(keys.length).toBeGreaterThan(50)
    expect(keys.filter((key) => !key.startsWith("example-"))).toEqual([])
    const documented = documentedKeys()
    expect(documented.size).toBeGreaterThan(20)
    expect([...documented].filter((key) => key.startsWith("example-"))).toEqual([])
    expect(readFileSync(new URL("apps/http/src/docs/browser/docs.js", ROOT), "utf8")).toContain("/^example-/")
  })
})
