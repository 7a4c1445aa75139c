import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Api } from "@orchestrator/api"
import { Effect } from "effect"

export { Api }
/** Branded in the contract: `Currency.make("EUR")` checks the code where the value is made. */
export { Currency } from "@orchestrator/core"

export interface ClientOptions {
  /** The service's origin, e.g. `http://localhost:3000` (the API's paths carry `/v1` themselves). */
  readonly baseUrl: string
  /** A secret key (`sk_test_…` or `sk_live_…`), sent as `Authorization: Bearer …` on every call. */
  readonly apiKey: string
}

/**
 * The whole API as typed methods, one group per resource (`client.payments.create(...)`), derived from
 * the same HttpApi the server implements, so a request or an answer the server would refuse does not
 * type-check. Errors are typed too: a decline fails with `PaymentRefused` (the core's own name for it), and so on.
 */
export const makeClient = (options: ClientOptions) =>
  HttpApiClient.make(Api, {
    baseUrl: options.baseUrl,
    transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(options.apiKey))
  })

/** The same client with the platform's `fetch` provided: what a plain Node script runs. */
export const makeFetchClient = (options: ClientOptions) => makeClient(options).pipe(Effect.provide(FetchHttpClient.layer))

export type OrchestratorClient = Effect.Effect.Success<ReturnType<typeof makeClient>>
