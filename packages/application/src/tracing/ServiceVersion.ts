import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

/**
 * The service's version in traces (`service.version`): the commit it was built from. The build
 * (`pnpm build`, `pnpm install`) writes it beside the bundle; run from the sources, it is the
 * checkout's commit. `OTEL_RESOURCE_ATTRIBUTES=service.version=…` names a release instead.
 */
export const serviceVersion = (): string => {
  try {
    const built = JSON.parse(readFileSync(new URL("./version.json", import.meta.url), "utf8")) as { readonly commit?: unknown }
    if (typeof built.commit === "string" && built.commit !== "") return built.commit
  } catch {
    // Not the bundle: the sources, in a checkout.
  }
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: fileURLToPath(new URL(".", import.meta.url)),
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"]
    }).trim()
  } catch {
    return "unknown"
  }
}
