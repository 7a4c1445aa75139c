import { type Settings } from "@orchestrator/application"
import type { TrustedProxyList } from "@orchestrator/application"
import { SandboxPagesLive } from "@orchestrator/connectors"
import { DashboardPagesLive } from "@orchestrator/dashboard"
import { Layer } from "effect"
import { TrustedProxies } from "./ClientAddress.js"
import { HttpRoutesLive } from "./HttpRoutes.js"
import { HttpServerNodeLive, type HttpServerOptions } from "./HttpServerNode.js"

/**
 * The HTTP shell: every route on Node's HTTP server at `port`, with `pages` mounted beside the API.
 * It needs the application (the core over its adapters) provided below it.
 */
export const HttpMain = <E, R>(
  options: HttpServerOptions & {
    readonly trustedProxies: TrustedProxyList
    readonly pages: Layer.Layer<never, E, R>
  }
) =>
  HttpRoutesLive(options.pages, { traceProbes: options.traceProbes === true }).pipe(
    Layer.provide(HttpServerNodeLive(options)),
    Layer.provide(Layer.succeed(TrustedProxies, options.trustedProxies))
  )

/**
 * The HTTP shell as the service runs it, from its settings: the API with the dashboard and the
 * sandbox PSP's pages beside it. `run.ts` runs it alone; `orchestrator http` and `start` run it too.
 */
export const HttpShell = (settings: Settings) =>
  HttpMain({
    port: settings.port,
    ...(settings.host === undefined ? {} : { host: settings.host }),
    trustedProxies: settings.trustedProxies,
    trustIncomingTraces: settings.trustIncomingTraces,
    traceProbes: settings.traceProbes,
    pages: Layer.merge(SandboxPagesLive, DashboardPagesLive)
  })
