import { execFileSync } from "node:child_process"
import * as net from "node:net"

/** A port nothing listens on right now, for a server or process about to start: no other service answers for ours. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })

/** The processes `pid` started, and theirs. */
export const descendants = (pid: number): Array<number> => {
  let children: Array<number> = []
  try {
    children = execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
      .split("\n").map((line) => Number(line.trim())).filter((child) => child > 0)
  } catch {
    // ps exits 1 when there are none.
  }
  return children.flatMap((child) => [child, ...descendants(child)])
}

/** Whether a process of this id still runs. */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
