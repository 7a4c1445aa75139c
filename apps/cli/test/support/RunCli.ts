import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

/** Launched as an operator would: through `bin/orchestrator`. */
const launcher = fileURLToPath(new URL("../../../../bin/orchestrator", import.meta.url))

export interface Finished {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** One command to its end, in a clean environment (none of the service's variables but `env`). */
export const runCli = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  new Promise<Finished>((resolve) => {
    const clean: Record<string, string> = {}
    for (const [name, value] of Object.entries(process.env)) {
      if (value !== undefined && !/^(PORT|DATABASE_URL|ORCHESTRATOR_.*|LOG_LEVEL|REDIS_URL)$/.test(name)) clean[name] = value
    }
    const child = spawn(launcher, [...args], { env: { ...clean, ...env }, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += chunk))
    child.stderr.on("data", (chunk) => (stderr += chunk))
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })
