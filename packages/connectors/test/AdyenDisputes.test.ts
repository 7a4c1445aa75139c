import { describe, expect, it } from "@effect/vitest"
import { type FakeAdyen, fakeAdyen, type NotificationFields, OpenApiContract } from "@orchestrator/testing"
import { Effect, Schema } from "effect"
import { makeAdyenConnector } from "../src/adyen/AdyenConnector.js"
import { AdyenSettings } from "../src/adyen/AdyenSettings.js"
import { fetchHttp, pspContext } from "./pspFixtures.js"

const HMAC_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056"
const webhooks = OpenApiContract.adyenWebhooks()

const adyen = (fake: FakeAdyen) =>
  Effect.map(fetchHttp, (http) =>
    makeAdyenConnector(
      http,
      pspContext({
        type: "adyen",
        baseUrl: fake.url,
        credentials: { api_key: "AQEfakeApiKeyForTests", merchant_account: fake.merchantAccount },
        webhookSecret: HMAC_KEY
      }),
      Schema.decodeUnknownSync(AdyenSettings)({})
    ))

/** A dispute notification of payment `PSP_PAYMENT` (our reference `att_1`), as Adyen documents them. */
const disputeItem = (eventCode: string, eventDate: string, additionalData: Record<string, unknown> = {}): NotificationFields => ({
  pspReference: "DISPUTE0001",
  originalReference: "PSP_PAYMENT",
  merchantReference: "att_1",
  amount: { value: 2500, currency: "EUR" },
  eventCode,
  success: true,
  reason: "Merchandise/Services Not Received",
  eventDate,
  additionalData: { chargebackReasonCode: "13.1", chargebackSchemeCode: "visa", ...additionalData }
})

describe("Adyen's dispute notifications", () => {
  it.scoped("read as dispute facts: chargeback, defense, reversal, second chargeback and pre-arbitration, each at its stage", () =>
    Effect.gen(function*() {
      const fake = yield* fakeAdyen
      const connector = yield* adyen(fake)
      const read = (item: NotificationFields) => {
        const body = fake.notification(HMAC_KEY, [item])
        expect(webhooks.checkWebhook(`/${item.eventCode}`, JSON.parse(body))).toEqual([])
        return Effect.map(connector.verifyWebhook({ body: new TextEncoder().encode(body), headers: {} }), (events) =>
          events.map((event) => event._tag === "DisputeUpdated" ? event.fact : event))
      }
      const chargeback = yield* read(disputeItem("CHARGEBACK", "2026-11-22T08:54:45+01:00", {
        disputeStatus: "Unresponded",
        defensePeriodEndsAt: "2026-12-06T08:54:45+01:00"
      }))
      expect(chargeback).toEqual([{
        pspDisputeId: "DISPUTE0001",
        reference: "att_1",
        pspPaymentId: "PSP_PAYMENT",
        status: "needs_response",
        stage: "chargeback",
        amount: 2500,
        currency: "EUR",
        reason: "product_not_received",
        reasonCode: "13.1",
        evidenceDueByMillis: Date.parse("2026-12-06T07:54:45Z"),
        fee: null,
        occurredAtMillis: Date.parse("2026-11-22T07:54:45Z")
      }])
      const cases: ReadonlyArray<readonly [string, Record<string, unknown>, string, string]> = [
        ["NOTIFICATION_OF_CHARGEBACK", {}, "needs_response", "chargeback"],
        ["REQUEST_FOR_INFORMATION", { rfiReasonCode: "RFI" }, "needs_response", "inquiry"],
        ["INFORMATION_SUPPLIED", { disputeStatus: "Responded" }, "under_review", "chargeback"],
        ["DISPUTE_DEFENSE_PERIOD_ENDED", { disputeStatus: "Expired" }, "expired", "chargeback"],
        ["CHARGEBACK_REVERSED", { disputeStatus: "Won" }, "won", "chargeback"],
        ["SECOND_CHARGEBACK", { disputeStatus: "Lost" }, "lost", "chargeback"],
        ["PREARBITRATION_WON", {}, "won", "pre_arbitration"],
        ["PREARBITRATION_LOST", {}, "lost", "pre_arbitration"]
      ]
      for (const [eventCode, data, status, stage] of cases) {
        const [fact] = yield* read(disputeItem(eventCode, "2026-11-23T08:00:00+01:00", data))
        expect([eventCode, fact]).toMatchObject([eventCode, { status, stage, pspDisputeId: "DISPUTE0001" }])
      }
      // Not a dispute: a fraud notice moves nothing.
      expect(yield* read(disputeItem("NOTIFICATION_OF_FRAUD", "2026-11-23T08:00:00+01:00"))).toEqual([])
    }))
})
