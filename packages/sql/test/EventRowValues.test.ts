import { describe, expect, it } from "@effect/vitest"
import { API_VERSION, Event, Payment, PaymentEventTypes } from "@orchestrator/core"
import { testConnection } from "@orchestrator/testing"
import { Arbitrary, DateTime, FastCheck, Schema } from "effect"
import { eventRowValues } from "../src/events/EventsRepositorySql.js"

const encodeEvent = Schema.encodeSync(Event)

describe("an event's row", () => {
  it("about a payment holds exactly what encoding the whole event gives, reusing the payment's JSON", () => {
    const events = FastCheck.record({
      payment: Arbitrary.make(Payment),
      type: FastCheck.constantFrom(...PaymentEventTypes),
      millis: FastCheck.integer({ min: 0, max: Date.UTC(9999, 0, 1) })
    }).map(({ millis, payment, type }): Event => ({
      object: "event",
      id: `evt_${millis}`,
      type,
      api_version: API_VERSION,
      created_at: DateTime.unsafeMake(millis),
      livemode: payment.livemode,
      data: { object: payment }
    }))
    FastCheck.assert(
      FastCheck.property(events, (event) => {
        const encoded = encodeEvent(event)
        const row = eventRowValues(event)
        expect({ ...row, data: JSON.parse(row.data) }).toEqual(encoded)
        expect(row.data).toBe(JSON.stringify(encoded.data))
      }),
      { numRuns: 50 }
    )
  })

  it("about anything else (here a connection's view, a plain object) is the whole event encoded", () => {
    const event: Event = {
      object: "event",
      id: "evt_plain",
      type: "provider_connection.error",
      api_version: API_VERSION,
      created_at: DateTime.unsafeMake(0),
      livemode: false,
      data: { object: { ...testConnection({ status: "error", last_error: "down" }), webhook_url: "https://orchestrator.test/hooks/pcn_test" } }
    }
    const row = eventRowValues(event)
    expect({ ...row, data: JSON.parse(row.data) }).toEqual(encodeEvent(event))
  })
})
