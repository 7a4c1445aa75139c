import { egressUrlProblem, PRIVATE_ADDRESSES_DENIED, type PrivateAddresses, webhookAccess } from "../egress/EgressPolicy.js"

/**
 * Why an endpoint may not use `url`, if it may not, judged when it is saved: the egress policy of
 * webhook deliveries in its mode. Names pass here; what they resolve to is checked at each delivery.
 * A test-mode refusal the operator's setting alone causes names that setting.
 */
export const endpointUrlProblem = (url: string, livemode: boolean, privateAddresses: PrivateAddresses): string | undefined => {
  const problem = egressUrlProblem(url, webhookAccess({ livemode, privateAddresses }))
  if (problem === undefined) return undefined
  const bySetting = !livemode && privateAddresses === "deny" && egressUrlProblem(url, webhookAccess({ livemode, privateAddresses: "allow" })) === undefined
  return `${livemode ? "live" : "test"}-mode endpoints cannot use this URL: ${problem}${bySetting ? `: ${PRIVATE_ADDRESSES_DENIED}` : ""}`
}
