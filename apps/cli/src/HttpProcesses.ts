import { Effect } from "effect"
import cluster from "node:cluster"

/**
 * `http` on several cores: Node runs JavaScript on one, so the primary forks `count` processes that
 * share the port (the primary hands out connections) and does nothing else. A process that dies is
 * replaced; SIGTERM and SIGINT reach every process, each drains its requests, and the primary
 * exits once they have.
 */
export const superviseHttpProcesses = (count: number) =>
  Effect.async<void>((resume) => {
    let stopping = false
    // Each process has a slot, kept by its replacement: its metrics port is ORCHESTRATOR_METRICS_PORT + slot.
    const slots = new Map<number, number>()
    const fork = (slot: number) => slots.set(cluster.fork({ HTTP_PROCESS_SLOT: String(slot) }).id, slot)
    for (let i = 0; i < count; i++) fork(i)
    cluster.on("exit", (worker, code, signal) => {
      if (!stopping) {
        console.error(`HTTP process ${worker.process.pid} ended (${signal ?? code}); starting another`)
        fork(slots.get(worker.id) ?? 0)
        slots.delete(worker.id)
      } else if (Object.keys(cluster.workers ?? {}).length === 0) {
        resume(Effect.void)
      }
    })
    const stop = (signal: NodeJS.Signals) => () => {
      stopping = true
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal)
    }
    process.once("SIGTERM", stop("SIGTERM"))
    process.once("SIGINT", stop("SIGINT"))
    // Interrupted (the runtime's own signal handling): the primary outlives its processes, so none
    // of them loses its channel to it while it drains.
    return Effect.async<void>((done) => {
      stop("SIGTERM")()
      if (Object.keys(cluster.workers ?? {}).length === 0) return done(Effect.void)
      cluster.on("exit", () => {
        if (Object.keys(cluster.workers ?? {}).length === 0) done(Effect.void)
      })
    })
  })

/**
 * In a forked HTTP process: a channel to the primary that closed while this process drains (the
 * primary was killed) is no reason to crash; the process finishes its requests and exits.
 */
export const toleratePrimaryGone = () => {
  cluster.worker?.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE" && error.code !== "ERR_IPC_CHANNEL_CLOSED") console.error(error)
  })
}
