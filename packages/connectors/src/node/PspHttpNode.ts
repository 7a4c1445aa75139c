import { HttpClient, HttpClientError, HttpClientResponse } from "@effect/platform"
import { type PrivateAddresses, pspAccess } from "@orchestrator/core"
import { type EgressAnswer, makeEgressClient, type Resolve } from "@orchestrator/egress"
import { Effect, Layer } from "effect"
import { PSP_ANSWER_LIMIT, PspHttp } from "../transport/PspHttp.js"

/** A Fetch `Response` of what the egress client read, for the platform's `HttpClientResponse`. */
const webResponse = (answer: EgressAnswer): Response => {
  const headers = new Headers()
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const each of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      try {
        headers.append(name, each)
      } catch {
        // A header Fetch cannot hold is one no connector reads.
      }
    }
  }
  // Fetch refuses statuses outside 200-599 and bodies on 204/304; neither is a PSP answer a connector reads.
  const status = answer.status >= 200 && answer.status <= 599 ? answer.status : 502
  return new Response(status === 204 || status === 304 ? null : answer.body, { status, headers })
}

/**
 * How connectors reach PSPs on Node: every call through the egress client under the egress policy
 * of its connection (live: https to the PSP's documented hosts on public addresses; test: public
 * https, and private addresses when the operator allows them), checked again at each call so a
 * saved URL the policy now forbids fails as unavailable with nothing sent. The connection's
 * timeout bounds connecting and the whole answer, which is read up to 1 MiB.
 */
export const PspHttpNode = (options: { readonly privateAddresses: PrivateAddresses; readonly resolve?: Resolve }) =>
  Layer.scoped(
    PspHttp,
    Effect.gen(function*() {
      const egress = makeEgressClient(options.resolve === undefined ? {} : { resolve: options.resolve })
      yield* Effect.addFinalizer(() => Effect.sync(egress.close))
      return PspHttp.of({
        client: (destination) => {
          const access = pspAccess({ livemode: destination.livemode, liveHosts: destination.liveHosts, privateAddresses: options.privateAddresses })
          return HttpClient.make((request, url) => {
            const body = request.body._tag === "Uint8Array" ? request.body.body : request.body._tag === "Empty" ? undefined : null
            if (body === null) {
              return Effect.fail(new HttpClientError.RequestError({ request, reason: "Encode", description: "PSP calls send encoded bodies (text or bytes)" }))
            }
            return egress.send({
              method: request.method,
              url: url.toString(),
              headers: {
                ...request.headers,
                ...(request.body._tag === "Uint8Array" ? { "content-type": request.body.contentType } : {})
              },
              ...(body === undefined ? {} : { body }),
              access,
              deadlineMs: destination.timeoutMs,
              connectTimeoutMs: destination.connectTimeoutMs,
              answerLimit: { bytes: PSP_ANSWER_LIMIT, beyond: "fail" }
            }).pipe(
              Effect.map((answer) => HttpClientResponse.fromWeb(request, webResponse(answer))),
              Effect.mapError((failure) => new HttpClientError.RequestError({ request, reason: "Transport", cause: failure }))
            )
            // Our trace ids are ours: no traceparent header goes to a PSP.
          }).pipe(HttpClient.withTracerPropagation(false))
        }
      })
    })
  )
