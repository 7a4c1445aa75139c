import { HttpApiBuilder, HttpMiddleware, HttpRouter, HttpServer } from "@effect/platform"
import { Api } from "@orchestrator/api"
import { PublicUrls } from "@orchestrator/core"
import { Effect, FiberRef, Layer } from "effect"
import { AuthorizationLive } from "./AuthorizationLive.js"
import { CheckoutAuthorizationLive } from "./checkout/CheckoutAuthorizationLive.js"
import { CheckoutSessionHttpLive, CheckoutSessionsHttpLive } from "./checkout/CheckoutHttp.js"
import { checkoutPageRoutes } from "./checkout/CheckoutPages.js"
import { DisputesHttpLive } from "./disputes/DisputesHttp.js"
import { makeDocsRoutes } from "./docs/DocsRoutes.js"
import { OpenApiRouteLive } from "./docs/OpenApiRoute.js"
import { EdgeLive } from "./Edge.js"
import { EventsHttpLive } from "./events/EventsHttp.js"
import { FilesHttpLive } from "./files/FilesHttp.js"
import { HealthHttpLive, isProbe, TraceProbes } from "./health/HealthHttp.js"
import { InsightsHttpLive } from "./insights/InsightsHttp.js"
import { OrganizationHttpLive } from "./organization/OrganizationHttp.js"
import { PaymentReturnHttpLive } from "./payments/PaymentReturnHttp.js"
import { PaymentsHttpLive } from "./payments/PaymentsHttp.js"
import { ProvidersHttpLive, ProviderWebhooksHttpLive } from "./providers/ProvidersHttp.js"
import { RefundsHttpLive } from "./refunds/RefundsHttp.js"
import { RoutingHttpLive } from "./routing/RoutingHttp.js"
import { CustomersHttpLive, InvoicesHttpLive, PlansHttpLive, SubscriptionsHttpLive, TestClocksHttpLive } from "./subscriptions/BillingHttp.js"
import { CardFormAuthorizationLive } from "./vault/CardFormAuthorizationLive.js"
import { CardFormHttpLive } from "./vault/CardFormHttp.js"
import { CardFormRoutes } from "./vault/CardFormPages.js"
import { PaymentMethodsHttpLive } from "./vault/PaymentMethodsHttp.js"
import { WebhooksHttpLive } from "./webhooks/WebhooksHttp.js"

const ApiLive = HttpApiBuilder.api(Api).pipe(
  Layer.provide([
    PaymentsHttpLive,
    PaymentReturnHttpLive,
    RefundsHttpLive,
    DisputesHttpLive,
    FilesHttpLive,
    PaymentMethodsHttpLive,
    CardFormHttpLive,
    EventsHttpLive,
    WebhooksHttpLive,
    ProvidersHttpLive,
    RoutingHttpLive,
    OrganizationHttpLive,
    ProviderWebhooksHttpLive,
    HealthHttpLive,
    CustomersHttpLive,
    PlansHttpLive,
    SubscriptionsHttpLive,
    InvoicesHttpLive,
    TestClocksHttpLive,
    InsightsHttpLive,
    CheckoutSessionsHttpLive,
    CheckoutSessionHttpLive
  ]),
  Layer.provide([AuthorizationLive, CheckoutAuthorizationLive, CardFormAuthorizationLive])
)

/** The checkout drop-in script and the hosted payment page, served beside the API. */
const CheckoutPagesLive = HttpApiBuilder.Router.use((router) => Effect.flatMap(PublicUrls, (urls) => router.concat(checkoutPageRoutes(urls.vaultOrigin))))

/** The vault's card form, its assets and the script that mounts it on a merchant's page. */
const CardFormPagesLive = HttpApiBuilder.Router.use((router) => router.concat(CardFormRoutes))

/** `/docs`: the reference and the guides, served from this origin only. */
const DocsLive = HttpApiBuilder.Router.use((router) => Effect.flatMap(Effect.sync(makeDocsRoutes), (routes) => router.concat(routes)))

/**
 * Every route of the service on whatever `HttpServer` is provided: the API, `/v1/openapi.json`,
 * the docs at `/docs` (the reference and the guides, nothing from another origin), the hosted checkout page, and the `pages` the
 * composition root mounts beside them (the dashboard, the sandbox PSP's pages), all behind the
 * edge middleware.
 */
export const HttpRoutesLive = <E, R>(pages: Layer.Layer<never, E, R>, options: { readonly traceProbes?: boolean } = {}) =>
  Layer.unwrapEffect(Effect.map(FiberRef.get(FiberRef.currentTracerEnabled), (tracing) => routes(pages, tracing, options)))

const routes = <E, R>(pages: Layer.Layer<never, E, R>, tracing: boolean, options: { readonly traceProbes?: boolean }) =>
  HttpApiBuilder.serve().pipe(
    // Untraced, no server span at all: even a no-op one parses the URL and redacts the headers for
    // it on every request. Probes come every few seconds and say nothing: no trace of theirs unless asked.
    HttpMiddleware.withTracerDisabledWhen((request) => !tracing || (options.traceProbes !== true && isProbe(request.url))),
    Layer.provide(DocsLive),
    Layer.provide(OpenApiRouteLive),
    Layer.provide(pages),
    Layer.provide(CheckoutPagesLive),
    Layer.provide(CardFormPagesLive),
    Layer.provide(EdgeLive),
    Layer.provide(ApiLive),
    Layer.provide(Layer.succeed(TraceProbes, options.traceProbes === true)),
    // The router would refuse a path segment over 100 characters as "no such route"; an id of any
    // length is judged by its schema instead (and an unknown one answers 404 resource_missing).
    Layer.locally(HttpRouter.currentRouterConfig, { maxParamLength: Number.MAX_SAFE_INTEGER }),
    HttpServer.withLogAddress
  )
