import type { AuthorizeRequest } from "@orchestrator/core"
import { isStoredPaymentMethod } from "./AdyenPaymentMethod.js"
import { CAPTURE_METADATA_KEY } from "./AdyenWebhooks.js"

/**
 * The body of `/payments` for an authorization: amount, shopper, stored-credential model, browser for
 * 3DS2, capture mode. `previousTransaction` is the scheme's id of a raw card's first authorization,
 * for a merchant-initiated charge: Adyen links the charge to it (`additionalData.networkTxReference`,
 * with `ContAuth` and a recurring model, as its document asks), wherever that first one was made.
 */
export const paymentBody = (
  request: AuthorizeRequest,
  value: number,
  paymentMethod: Record<string, unknown>,
  previousTransaction: string | null = null
) =>
(merchantAccount: string) => {
  const stored = isStoredPaymentMethod(paymentMethod) || previousTransaction !== null
  const additionalData = {
    ...(request.capture ? {} : { manualCapture: "true" }),
    ...(previousTransaction === null ? {} : { networkTxReference: previousTransaction })
  }
  const browser = request.browser
  const completeBrowser = browser !== null && browser.userAgent !== null && browser.acceptHeader !== null &&
    browser.language !== null && browser.colorDepth !== null && browser.screenWidth !== null &&
    browser.screenHeight !== null && browser.timeZoneOffset !== null && browser.javaEnabled !== null
  return {
    amount: { value, currency: request.currency },
    reference: request.reference,
    merchantAccount,
    paymentMethod,
    returnUrl: request.returnUrl,
    channel: "Web",
    shopperInteraction: request.offSession ? "ContAuth" : "Ecommerce",
    ...(request.customer === null ? {} : { shopperReference: request.customer.id }),
    ...(request.customer?.email ? { shopperEmail: request.customer.email } : {}),
    ...(stored || request.storedCredential !== "none"
      ? { recurringProcessingModel: request.offSession ? "Subscription" : "CardOnFile" }
      : {}),
    ...(request.storedCredential === "initial" ? { storePaymentMethod: true } : {}),
    ...(completeBrowser
      ? {
        browserInfo: {
          userAgent: browser.userAgent,
          acceptHeader: browser.acceptHeader,
          language: browser.language,
          colorDepth: browser.colorDepth,
          screenWidth: browser.screenWidth,
          screenHeight: browser.screenHeight,
          timeZoneOffset: browser.timeZoneOffset,
          javaEnabled: browser.javaEnabled
        }
      }
      : {}),
    ...(browser?.ipAddress ? { shopperIP: browser.ipAddress } : {}),
    // The redirect flow of 3DS2: its action is a URL our next_action can carry.
    authenticationData: { threeDSRequestData: { nativeThreeDS: "disabled" } },
    ...(Object.keys(additionalData).length === 0 ? {} : { additionalData }),
    // Adyen echoes metadata in its AUTHORISATION notification: how the webhook knows the capture mode.
    metadata: { [CAPTURE_METADATA_KEY]: request.capture ? "automatic" : "manual", payment_id: request.paymentId }
  }
}
