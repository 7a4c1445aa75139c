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

describe("a plain Node server embedding the core", () => {
  it("takes a card payment on the sandbox, refunds it, and receives both as signed events", async () => {
    const order = await post("/orders", { amount: 2500, currency: "EUR", token: "tok_visa" })
    expect(order.status).toBe(201)
    expect(order.body).toMatchObject({ status: "succeeded", amount: 2500, currency: "EUR", amount_refunded: 0 })

    const refund = await post(`/orders/${order.body.id}/refund`)
    expect(refund.status).toBe(201)
    expect(refund.body).toMatchObject({ payment_id: order.body.id, amount: 2500 })

    // The background jobs deliver each event, signed, to the shop's own route (the suite's timeout bounds the wait).
    const paid = await shop.arrival(order.body.id, "payment.succeeded")
    expect(paid.data.object).toMatchObject({ amount: 2500, status: "succeeded" })
    const refunded = await shop.arrival(refund.body.id, "refund.succeeded")
    expect(refunded.data.object).toMatchObject({ payment_id: order.body.id, amount: 2500, status: "succeeded" })
  })

  it("answers the core's refusals as the shop chooses: a declined card is a typed failure", async () => {
    const declined = await post("/orders", { amount: 2500, currency: "EUR", token: "tok_chargeDeclined" })
    expect(declined).toEqual({ status: 422, body: { error: "PaymentRefused" } })
  })
})
