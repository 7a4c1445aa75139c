import { randomUUID } from "node:crypto"

/** The service's name in traces unless `OTEL_SERVICE_NAME` says otherwise. */
export const DEFAULT_SERVICE_NAME = "payment-orchestrator"

export interface TracingSettings {
  readonly serviceName: string
  /**
   * The resource every span of the process carries, by OpenTelemetry's semantic conventions:
   * `service.name`, `service.version`, `service.instance.id` (one per process) and, when known,
   * `deployment.environment.name`; with every other attribute `OTEL_RESOURCE_ATTRIBUTES` names.
   */
  readonly resource: Readonly<Record<string, string>>
}

const isSet = (value: string | undefined): value is string => value !== undefined && value.trim() !== ""

/** `OTEL_RESOURCE_ATTRIBUTES` as the specification reads it: `key=value` pairs by commas, values percent-encoded. */
const resourceAttributes = (text: string | undefined): Record<string, string> => {
  const attributes: Record<string, string> = {}
  for (const pair of (text ?? "").split(",")) {
    const at = pair.indexOf("=")
    if (at <= 0) continue
    const key = pair.slice(0, at).trim()
    let value = pair.slice(at + 1).trim()
    try {
      value = decodeURIComponent(value)
    } catch {
      // Kept as written.
    }
    if (key !== "" && value !== "") attributes[key] = value
  }
  return attributes
}

/**
 * Whether traces are exported, read from the standard OpenTelemetry variables: on when an OTLP
 * endpoint is named (`OTEL_EXPORTER_OTLP_ENDPOINT`, or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` for
 * traces alone), unless `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`. The exporter and
 * the batch processor read the rest themselves (headers, timeouts, `OTEL_BSP_*`). The service's name
 * is `OTEL_SERVICE_NAME`, else `service.name` in `OTEL_RESOURCE_ATTRIBUTES`, else `payment-orchestrator`;
 * its version the commit built (`version` says which) unless the attributes name one; the deployment's
 * environment `deployment.environment.name` in the attributes (or the older `deployment.environment`),
 * else `ORCHESTRATOR_ENVIRONMENT`.
 */
export const tracingSettings = (
  env: Readonly<Record<string, string | undefined>>,
  version: () => string = () => "unknown"
): TracingSettings | undefined => {
  if (!isSet(env.OTEL_EXPORTER_OTLP_ENDPOINT) && !isSet(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)) return undefined
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return undefined
  const { "deployment.environment": legacyEnvironment, ...given } = resourceAttributes(env.OTEL_RESOURCE_ATTRIBUTES)
  const serviceName = isSet(env.OTEL_SERVICE_NAME) ? env.OTEL_SERVICE_NAME.trim() : given["service.name"] ?? DEFAULT_SERVICE_NAME
  const environment = given["deployment.environment.name"] ?? legacyEnvironment ??
    (isSet(env.ORCHESTRATOR_ENVIRONMENT) ? env.ORCHESTRATOR_ENVIRONMENT.trim() : undefined)
  return {
    serviceName,
    resource: {
      ...given,
      "service.name": serviceName,
      "service.version": given["service.version"] ?? version(),
      "service.instance.id": given["service.instance.id"] ?? randomUUID(),
      ...(environment === undefined ? {} : { "deployment.environment.name": environment })
    }
  }
}
