/** The front door of @orchestrator/http: everything another package may use. */
export { loadScalarScript } from "./docs/ScalarScript.js"
export { HttpMain } from "./main.js"
export { MetricsServerLive } from "./metrics/MetricsServer.js"
export { parseTrustedProxies, type TrustedProxyList } from "./TrustedProxies.js"
