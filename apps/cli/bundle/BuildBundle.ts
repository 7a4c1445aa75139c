/**
 * `pnpm build`: the command-line tool as one JavaScript file, `apps/cli/dist/orchestrator.mjs`, so
 * production runs plain node instead of transpiling TypeScript at start (tsx costs memory and time).
 * PGlite stays a package of its own: it loads its WebAssembly from beside its own files.
 */
import { build } from "esbuild"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const outfile = path.join(cli, "dist/orchestrator.mjs")
const started = Date.now()
await build({
  entryPoints: [path.join(cli, "src/main.ts")],
  outfile,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  sourcemap: true,
  external: ["@electric-sql/pglite", "pg-native", "tsx", "esbuild"],
  // Some CommonJS dependencies call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: "warning"
})
console.log(`built ${path.relative(process.cwd(), outfile)} in ${Date.now() - started} ms`)
