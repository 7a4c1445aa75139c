import { egressUrlProblem, type PrivateAddresses, webhookAccess } from "../egress/EgressPolicy.js"

/**
 * Why an endpoint may not use `url`, if it may not, judged when it is saved: the egress policy of
 * webhook deliveries in its mode. Names pass here; what they resolve to is checked at each delivery.
 */
export const endpointUrlProblem = (url: string, livemode: boolean, privateAddresses: PrivateAddresses): string | undefined => {
  const problem = egressUrlProblem(url, webhookAccess({ livemode, privateAddresses }))
  return problem === undefined ? undefined : `${livemode ? "live" : "test"}-mode endpoints cannot use this URL: ${problem}`
}
