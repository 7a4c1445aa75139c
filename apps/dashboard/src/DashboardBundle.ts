import { build } from "esbuild"
import { Data, Effect } from "effect"
import { readFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"

/** The dashboard as the browser gets it: one script, one stylesheet. */
export interface DashboardAssets {
  readonly script: string
  readonly stylesheet: string
}

export class DashboardBuildFailed extends Data.TaggedError("DashboardBuildFailed")<{ readonly cause: unknown }> {}

const source = (name: string) => fileURLToPath(new URL(`./browser/${name}`, import.meta.url))

/**
 * Bundles the browser source from the workspace with esbuild, in memory: the typed API client, the
 * schemas it decodes with and the pages, with nothing fetched from anywhere at run time.
 */
export const bundleDashboard: Effect.Effect<DashboardAssets, DashboardBuildFailed> = Effect.tryPromise({
  try: async () => {
    const result = await build({
      entryPoints: [source("Main.ts")],
      bundle: true,
      write: false,
      format: "esm",
      platform: "browser",
      target: "es2022",
      minify: true,
      legalComments: "none",
      logLevel: "silent"
    })
    const script = result.outputFiles.map((file) => file.text).join("\n")
    const stylesheet = await readFile(source("dashboard.css"), "utf8")
    return { script, stylesheet }
  },
  catch: (cause) => new DashboardBuildFailed({ cause })
})
