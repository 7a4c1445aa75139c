import { type PublicUrls, RETURN_TOKEN_PARAM } from "@orchestrator/core"

/**
 * The public addresses of the HTTP shell below `base`: the payment return and the PSP webhook
 * endpoints of this API, and the hosted checkout page the shell serves beside it.
 */
export const publicRoutesAt = (base: string, vaultOrigin?: string): PublicUrls["Type"] => ({
  base,
  vaultOrigin,
  paymentReturn: (paymentId, token) => `${base}/v1/payments/${paymentId}/return?${RETURN_TOKEN_PARAM}=${token}`,
  providerWebhook: (connectionId) => `${base}/v1/provider-webhooks/${connectionId}`,
  checkoutPage: (sessionId) => `${base}/checkout/${sessionId}`
})
