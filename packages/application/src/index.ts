/**
 * The application as a host runs it: the core over its adapters (`applicationLayer`, with SQL or memory
 * storage), the settings read from the environment, and what every process of the service has around
 * it: its log, its metrics port, its traces, the development organization, and running a shell until
 * it is told to stop (`runService`, `runFromEnvironment`).
 */
export { applicationLayer, memoryStorage, sqlStorage } from "./Application.js"
export { announce, ServiceLoggerLive } from "./logging/ServiceLogger.js"
export { MetricsServer, MetricsServerLive } from "./metrics/MetricsServer.js"
export { startProcessSeries } from "./metrics/ProcessSeries.js"
export { renderPrometheus } from "./metrics/PrometheusText.js"
export { applicationFor, describeFailure, runFromEnvironment, runMain, runService } from "./service/Service.js"
export { makePkcs11Kek, vaultKeyProviderFor } from "./service/VaultKeyProvider.js"
export { describeConfigError, type Settings, SettingsConfig } from "./settings/Settings.js"
export { bareAddress, NO_TRUSTED_PROXIES, parseTrustedProxies, type TrustedProxyList } from "./settings/TrustedProxies.js"
export { withTracing } from "./tracing/TracingLive.js"
