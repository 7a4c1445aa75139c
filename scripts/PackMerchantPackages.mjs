// Packs the packages a merchant's project installs from a file, outside this repository:
// `@orchestrator/webhook-verify` (no dependencies) and `@orchestrator/client` (the typed client, with the
// API contract and the core schemas it is derived from bundled inside, since neither is on a registry).
// Usage: node scripts/PackMerchantPackages.mjs [destination]  (default: dist-packages). Prints the tarballs.
import { execFileSync } from "node:child_process"
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"

const root = resolve(import.meta.dirname, "..")
const destination = resolve(process.argv[2] ?? join(root, "dist-packages"))
const run = (command, args, cwd = root) => execFileSync(command, args, { cwd, stdio: ["ignore", "pipe", "inherit"] }).toString()
const manifestOf = (dir) => JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"))

const client = manifestOf("packages/client")
/** Workspace packages bundled inside the client, in the client's version. */
const bundled = { "@orchestrator/api": "packages/api", "@orchestrator/core": "packages/core" }

/** A workspace manifest as published: its publish exports, workspace references pinned to the client's version. */
const published = (manifest, extra = {}) => {
  const dependencies = Object.fromEntries(
    Object.entries(manifest.dependencies ?? {}).map(([name, range]) => [name, range.startsWith("workspace:") ? client.version : range])
  )
  const { devDependencies: _dev, private: _private, publishConfig, ...rest } = manifest
  return { ...rest, version: client.version, ...publishConfig, dependencies, ...extra }
}

/** The compiled output only: no build info, no source maps pointing at sources that are not shipped. */
const copyDist = (from, to) =>
  cpSync(join(root, from, "dist"), join(to, "dist"), {
    recursive: true,
    filter: (path) => !path.endsWith(".tsbuildinfo") && !path.endsWith(".map")
  })

mkdirSync(destination, { recursive: true })
run("pnpm", ["exec", "tsc", "-b", "packages/client/tsconfig.build.json"])

const stage = mkdtempSync(join(tmpdir(), "orchestrator-client-"))
try {
  copyDist("packages/client", stage)
  cpSync(join(root, "packages/client/README.md"), join(stage, "README.md"))
  writeFileSync(
    join(stage, "package.json"),
    JSON.stringify(published(client, { bundleDependencies: Object.keys(bundled) }), null, 2)
  )
  for (const [name, dir] of Object.entries(bundled)) {
    const target = join(stage, "node_modules", name)
    const manifest = manifestOf(dir)
    copyDist(dir, target)
    // What the build reads beside dist (the API's recorded examples, imported as JSON).
    for (const entry of manifest.files ?? []) {
      // A "!" entry leaves something out; dist is copied above without its build info.
      if (entry !== "dist" && !entry.startsWith("!")) cpSync(join(root, dir, entry), join(target, entry), { recursive: true })
    }
    writeFileSync(join(target, "package.json"), JSON.stringify(published(manifest), null, 2))
  }
  const tarballs = [
    run("pnpm", ["pack", "--pack-destination", destination], join(root, "packages/webhook-verify")),
    run("npm", ["pack", "--silent", "--pack-destination", destination], stage)
  ]
  for (const line of tarballs) process.stdout.write(`${resolve(destination, line.trim().split("\n").pop())}\n`)
} finally {
  rmSync(stage, { recursive: true, force: true })
}
