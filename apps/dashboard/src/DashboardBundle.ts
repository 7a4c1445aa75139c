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

/** Where `pnpm build` puts the assets, beside the built service (this module is then part of it). */
const prebuilt = (name: string) => fileURLToPath(new URL(`./dashboard/${name}`, import.meta.url))

const readPrebuilt = async (): Promise<DashboardAssets | undefined> => {
  try {
    return { script: await readFile(prebuilt("app.js"), "utf8"), stylesheet: await readFile(prebuilt("app.css"), "utf8") }
  } catch {
    return undefined
  }
}

/**
 * The built service's assets when there are; else the browser source from the workspace, bundled
 * with esbuild in memory: the typed API client, the schemas it decodes with and the pages, with
 * nothing fetched from anywhere at run time.
 */
export const bundleDashboard: Effect.Effect<DashboardAssets, DashboardBuildFailed> = Effect.tryPromise({
  try: async () => {
    const built = await readPrebuilt()
    if (built !== undefined) return built
    const { build } = await import("esbuild")
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
