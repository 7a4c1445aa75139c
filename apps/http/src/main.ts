import { Layer } from "effect"
import { TrustedProxies } from "./ClientAddress.js"
import { HttpRoutesLive } from "./HttpRoutes.js"
import { HttpServerNodeLive, type HttpServerOptions } from "./HttpServerNode.js"
import type { TrustedProxyList } from "./TrustedProxies.js"

/**
 * The HTTP shell: every route on Node's HTTP server at `port`, with the pages the composition root
 * mounts beside the API. It needs the application (the core over its adapters) provided below it;
 * `orchestrator http` and `orchestrator start` launch it.
 */
export const HttpMain = <E, R>(
  options: HttpServerOptions & {
    readonly trustedProxies: TrustedProxyList
    readonly pages: Layer.Layer<never, E, R>
  }
) =>
  HttpRoutesLive(options.pages).pipe(
    Layer.provide(HttpServerNodeLive(options)),
    Layer.provide(Layer.succeed(TrustedProxies, options.trustedProxies))
  )
