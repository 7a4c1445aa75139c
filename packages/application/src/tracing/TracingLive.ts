import { Effect, Layer } from "effect"
import { IdleJobPassFilter } from "./IdleJobPassFilter.js"
import { RedactingSpanExporter } from "./RedactingSpanExporter.js"
import { serviceVersion } from "./ServiceVersion.js"
import { SettingStatementFilter } from "./SettingStatementFilter.js"
import { type TracingSettings, tracingSettings } from "./TracingSettings.js"

/**
 * Every span of the process, exported over OTLP/HTTP (JSON) in batches: through the idle-pass filter
 * (worker passes that found nothing are dropped), the setting-statement filter (a `set local …`
 * folds into its parent) and the redacting exporter (no secret leaves). The exporter reads the
 * standard variables itself (`OTEL_EXPORTER_OTLP_*`, `OTEL_BSP_*`); the resource is the settings'
 * (`TracingSettings.ts`). OpenTelemetry is imported only here, and only when tracing is on. On
 * shutdown what is buffered is flushed, for three seconds at most.
 */
export const TracingLive = (settings: TracingSettings) =>
  Layer.unwrapEffect(Effect.promise(async () => {
    const [Tracer, Resource, { NodeTracerProvider }, { BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
      import("@effect/opentelemetry/Tracer"),
      import("@effect/opentelemetry/Resource"),
      import("@opentelemetry/sdk-trace-node"),
      import("@opentelemetry/sdk-trace-base"),
      import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/resources")
    ])
    const provider = Layer.scoped(
      Tracer.OtelTracerProvider,
      Effect.acquireRelease(
        Effect.map(Resource.Resource, (resource) =>
          new NodeTracerProvider({
            resource,
            spanProcessors: [
              new IdleJobPassFilter(new SettingStatementFilter(new BatchSpanProcessor(new RedactingSpanExporter(new OTLPTraceExporter()))))
            ]
          })),
        (provider) =>
          Effect.tryPromise(() => provider.forceFlush().then(() => provider.shutdown())).pipe(
            Effect.ignore,
            Effect.timeoutOption("3 seconds")
          )
      )
    )
    return Tracer.layer.pipe(
      Layer.provide(provider),
      Layer.provide(Layer.succeed(Resource.Resource, resourceFromAttributes(settings.resource)))
    )
  }))

/**
 * The process's tracing, as the environment asks: exported when an OTLP endpoint is set, else no
 * tracer at all (spans are not even made, so untraced requests pay nothing for them).
 */
export const withTracing = (env: Readonly<Record<string, string | undefined>>) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
  const settings = tracingSettings(env, serviceVersion)
  return settings === undefined ? Effect.withTracerEnabled(effect, false) : Effect.provide(effect, TracingLive(settings))
}
