/**
 * `pnpm bench --against REF`: REF (a commit or tag) built in a scratch worktree of this repository
 * (`git worktree add --detach` under the system's temporary directory, `pnpm install
 * --frozen-lockfile`, offline when the store has everything, then `pnpm build`). Only REF's bundle is
 * used: this build's bench drives it, whatever REF's own bench looked like. The worktree is kept and
 * reused by the next run against the same commit (a commit does not change); `git worktree remove`
 * deletes it.
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

const ROOT = path.resolve(import.meta.dirname, "../../..")

/** Written once REF's build has finished: a worktree without it is (re)built. */
const BUILT_MARK = ".bench-built"

export interface RefBuild {
  /** REF's short commit, as the figures name it. */
  readonly commit: string
  readonly bundle: string
}

const git = (...args: Array<string>) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim()

const install = (dir: string) => {
  try {
    execFileSync("pnpm", ["install", "--frozen-lockfile", "--offline"], { cwd: dir, stdio: "inherit" })
  } catch {
    // Some package of REF's lockfile is not in the store: fetch it.
    execFileSync("pnpm", ["install", "--frozen-lockfile"], { cwd: dir, stdio: "inherit" })
  }
}

export const buildRef = (ref: string, log: (line: string) => void): RefBuild => {
  let commit: string
  try {
    commit = git("rev-parse", "--verify", "--quiet", `${ref}^{commit}`)
  } catch {
    throw new Error(`--against ${ref}: no such commit or tag in this repository`)
  }
  const short = commit.slice(0, 7)
  const dir = path.join(os.tmpdir(), `orchestrator-bench-${commit.slice(0, 12)}`)
  const bundle = path.join(dir, "apps/cli/dist/orchestrator.mjs")
  if (fs.existsSync(path.join(dir, BUILT_MARK)) && fs.existsSync(bundle)) {
    log(`${ref} (${short}) already built in ${dir}`)
    return { commit: short, bundle }
  }
  if (!fs.existsSync(path.join(dir, ".git"))) {
    // A worktree whose directory was deleted is still registered until pruned.
    git("worktree", "prune")
    log(`checking out ${ref} (${short}) in ${dir}`)
    git("worktree", "add", "--detach", dir, commit)
  }
  log(`building ${short} there (pnpm install, pnpm build)`)
  install(dir)
  execFileSync("pnpm", ["-s", "build"], { cwd: dir, stdio: "inherit" })
  if (!fs.existsSync(bundle)) throw new Error(`${ref}'s build wrote no ${path.relative(dir, bundle)}`)
  fs.writeFileSync(path.join(dir, BUILT_MARK), `${commit}\n`)
  return { commit: short, bundle }
}
