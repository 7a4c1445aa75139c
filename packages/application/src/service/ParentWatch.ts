import { Effect, Layer, Schedule } from "effect"

/**
 * Started by `pnpm start` (`ORCHESTRATOR_STOP_WITH_PARENT=1`), the service stops when the command
 * that started it is gone: a package manager killed with SIGTERM does not pass the signal on, and the
 * service would go on serving and holding the embedded database. It stops as on SIGTERM (draining
 * first), by sending itself that signal: one way to stop, whatever asked for it.
 */
export const stopWithParent = Layer.scopedDiscard(
  Effect.gen(function*() {
    const parent = process.ppid
    const orphaned = Effect.sync(() => process.ppid !== parent)
    yield* orphaned.pipe(
      Effect.repeat({ schedule: Schedule.spaced("1 second"), until: (gone) => gone }),
      Effect.zipRight(Effect.sync(() => process.kill(process.pid, "SIGTERM"))),
      Effect.forkScoped
    )
  })
)
