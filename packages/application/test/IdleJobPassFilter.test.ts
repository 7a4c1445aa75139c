import * as Resource from "@effect/opentelemetry/Resource"
import * as Tracer from "@effect/opentelemetry/Tracer"
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { type Job, tracedPass } from "@orchestrator/core"
import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { IdleJobPassFilter } from "../src/tracing/IdleJobPassFilter.js"

/** Runs `effect` with every span through the filter into memory; answers the names exported. */
const exportedNames = async (effect: Effect.Effect<unknown>) => {
  const exporter = new InMemorySpanExporter()
  const provider = new BasicTracerProvider({ spanProcessors: [new IdleJobPassFilter(new SimpleSpanProcessor(exporter))] })
  await Effect.runPromise(effect.pipe(
    Effect.provide(Tracer.layer.pipe(
      Layer.provide(Layer.succeed(Tracer.OtelTracerProvider, provider)),
      Layer.provide(Resource.layer({ serviceName: "test" }))
    ))
  ))
  await provider.forceFlush()
  return exporter.getFinishedSpans().map((span) => span.name)
}

const job = (name: string, items: number): Job => ({
  name,
  every: "1 second",
  run: Effect.as(Effect.withSpan(Effect.void, `${name} claim`), items)
})

describe("worker job passes in traces", () => {
  it("a pass that handled nothing is dropped with its spans; one that did something is exported whole", async () => {
    const names = await exportedNames(Effect.all([tracedPass(job("idle", 0)), tracedPass(job("busy", 2)), Effect.withSpan(Effect.void, "request")]))
    expect(names.sort()).toEqual(["busy claim", "job busy", "request"])
  })

  it("a pass that failed is exported, to be seen", async () => {
    const failing: Job = { name: "broken", every: "1 second", run: Effect.withSpan(Effect.die("database gone"), "broken claim") }
    expect((await exportedNames(Effect.exit(tracedPass(failing)))).sort()).toEqual(["broken claim", "job broken"])
  })
})
