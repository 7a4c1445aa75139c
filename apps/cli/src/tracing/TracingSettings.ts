/** The service's name in traces unless `OTEL_SERVICE_NAME` says otherwise. */
export const DEFAULT_SERVICE_NAME = "payment-orchestrator"

export interface TracingSettings {
  readonly serviceName: string
}

const isSet = (value: string | undefined) => value !== undefined && value.trim() !== ""

/**
 * Whether traces are exported, read from the standard OpenTelemetry variables: on when an OTLP
 * endpoint is named (`OTEL_EXPORTER_OTLP_ENDPOINT`, or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` for
 * traces alone), unless `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`. The exporter and
 * the batch processor read the rest themselves (headers, timeouts, `OTEL_BSP_*`). The service's name
 * is `OTEL_SERVICE_NAME`, else `service.name` in `OTEL_RESOURCE_ATTRIBUTES`, else `payment-orchestrator`.
 */
export const tracingSettings = (env: Readonly<Record<string, string | undefined>>): TracingSettings | undefined => {
  if (!isSet(env.OTEL_EXPORTER_OTLP_ENDPOINT) && !isSet(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)) return undefined
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return undefined
  const fromAttributes = /(?:^|,)\s*service\.name\s*=\s*([^,]+)/.exec(env.OTEL_RESOURCE_ATTRIBUTES ?? "")?.[1]?.trim()
  return {
    serviceName: isSet(env.OTEL_SERVICE_NAME) ? env.OTEL_SERVICE_NAME!.trim() : isSet(fromAttributes) ? fromAttributes! : DEFAULT_SERVICE_NAME
  }
}
