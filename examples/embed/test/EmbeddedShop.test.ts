import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startShop } from "../src/ShopServer.js"

type Shop = Awaited<ReturnType<typeof startShop>>
let shop: Shop

beforeAll(async () => {
  shop = await startShop({ port: 0 })
})
afterAll(() => shop.close())

const post = async (path: string, body: unknown = {}) => {
  const response = await fetch(`${shop.baseUrl}${path}`, { method: "POST", body: JSON.stringify(body) })
  return { status: response.status, body: await response.json() as Record<string, any> }
}

/** Waits (a bounded number of polls) for the events the background jobs deliver to the shop. */
const eventsFor = async (objectId: string, types: ReadonlyArray<string>) => {
  for (let polls = 0; polls < 300; polls++) {
    const seen = shop.received.filter((event) => event.data.object.id === objectId).map((event) => event.type)
    if (types.every((type) => seen.includes(type))) return seen
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return shop.received.filter((event) => event.data.object.id === objectId).map((event) => event.type)
}

describe("a plain Node server embedding the core", () => {
  it("takes a card payment on the sandbox, refunds it, and receives both as signed events", async () => {
    const order = await post("/orders", { amount: 2500, currency: "EUR", token: "tok_visa" })
    expect(order.status).toBe(201)
    expect(order.body).toMatchObject({ status: "succeeded", amount: 2500, currency: "EUR", amount_refunded: 0 })

    const refund = await post(`/orders/${order.body.id}/refund`)
    expect(refund.status).toBe(201)
    expect(refund.body).toMatchObject({ payment_id: order.body.id, amount: 2500 })

    expect(await eventsFor(order.body.id, ["payment.succeeded"])).toContain("payment.succeeded")
    // The sandbox settles refunds later and says so on the shop's own PSP webhook route.
    expect(await eventsFor(refund.body.id, ["refund.succeeded"])).toContain("refund.succeeded")
  })

  it("answers the core's refusals as the shop chooses: a declined card is a typed failure", async () => {
    const declined = await post("/orders", { amount: 2500, currency: "EUR", token: "tok_chargeDeclined" })
    expect(declined).toEqual({ status: 422, body: { error: "PaymentRefused" } })
  })
})
