/**
 * `pnpm build`: the command-line tool as one JavaScript file, `apps/cli/dist/orchestrator.mjs`, so
 * production runs plain node instead of transpiling TypeScript at every start (tsx costs some 180 MB
 * of memory per process). Beside it go the browser assets the service serves: the checkout drop-in
 * and the dashboard, bundled now rather than at the first request.
 * PGlite stays a package of its own: it loads its WebAssembly from beside its own files.
 */
import { bundleDashboard } from "@orchestrator/dashboard"
import { loadScalarScript } from "@orchestrator/http"
import { Effect } from "effect"
import { build } from "esbuild"
import { execFile } from "node:child_process"
import { cp, mkdir, rm, writeFile } from "node:fs/promises"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const root = path.resolve(cli, "../..")
const dist = path.join(cli, "dist")
const started = Date.now()

await rm(dist, { recursive: true, force: true })
await build({
  entryPoints: [path.join(cli, "src/main.ts")],
  outfile: path.join(dist, "orchestrator.mjs"),
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  sourcemap: true,
  external: ["@electric-sql/pglite", "pg-native", "esbuild"],
  // Without the dependencies' comments: a few hold characters past Latin-1 (’ → —), which made V8 keep
  // the whole 6 MB source, held for lazy compilation, as a two-byte string in every process (12 MB
  // of heap; 4.4 MB now). Names stay; stack traces map back through the source map. Licence comments
  // go to `orchestrator.mjs.LEGAL.txt`.
  minifyWhitespace: true,
  legalComments: "linked",
  // Some CommonJS dependencies call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: "warning"
})
// Read at start from beside the module that serves them, which is now the bundle.
await cp(path.join(root, "apps/http/src/checkout/browser"), path.join(dist, "browser"), { recursive: true })
await cp(path.join(root, "apps/http/src/docs/browser"), path.join(dist, "browser"), { recursive: true })
await cp(path.join(root, "apps/http/src/vault/browser"), path.join(dist, "browser"), { recursive: true })
await cp(path.join(root, "docs/guides"), path.join(dist, "guides"), { recursive: true })
await mkdir(path.join(dist, "docs"), { recursive: true })
await writeFile(path.join(dist, "docs/scalar.js"), loadScalarScript())
// Bundled from source: nothing is built yet where the built service would look.
const dashboard = await Effect.runPromise(bundleDashboard)
await mkdir(path.join(dist, "dashboard"), { recursive: true })
await writeFile(path.join(dist, "dashboard/app.js"), dashboard.script)
await writeFile(path.join(dist, "dashboard/app.css"), dashboard.stylesheet)
// The commit built, the service's version in its traces (`tracing/ServiceVersion.ts`).
const commit = await new Promise<string>((resolve) =>
  execFile("git", ["rev-parse", "--short", "HEAD"], { cwd: root }, (error, stdout) => resolve(error === null ? stdout.trim() : ""))
)
await writeFile(path.join(dist, "version.json"), `${JSON.stringify({ commit })}\n`)
console.log(`built ${path.relative(process.cwd(), dist)}/orchestrator.mjs and its browser assets in ${Date.now() - started} ms`)
