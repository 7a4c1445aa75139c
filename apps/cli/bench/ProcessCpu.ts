/**
 * CPU time a running process (and its children, e.g. forked HTTP processes) has used so far, in
 * milliseconds: what `process.cpuUsage()` (user + system) reports inside it, read from outside through
 * `/proc`, since the service runs in processes of its own. Linux counts it in clock ticks (1/100 s).
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100
  } catch {
    return 100
  }
})()

const children = (pid: number): Array<number> => {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    return []
  }
}

/** utime + stime of `pid` and its live descendants. */
export const cpuMs = (pid: number): number => {
  let ticks = 0
  try {
    // The command name (field 2) may hold spaces: the fields after it are counted from its ")".
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    ticks = Number(fields[11]) + Number(fields[12])
  } catch {
    return 0
  }
  return (ticks * 1000) / TICKS_PER_SECOND + children(pid).reduce((sum, child) => sum + cpuMs(child), 0)
}
