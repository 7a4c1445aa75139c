/**
 * What must hold after any fault, checked against the database and the receiver's count. Each check
 * returns its violations; an empty list is a pass.
 */
import { type DatabaseTarget, rowsOf } from "./Database.js"
import type { LoadFigures } from "./PaymentLoad.js"

export interface Invariant {
  readonly name: string
  readonly violations: ReadonlyArray<string>
}

export const checkInvariants = (
  database: DatabaseTarget,
  organizationId: string,
  load: LoadFigures,
  received: ReadonlyMap<string, number>,
  endpointId: string
): ReadonlyArray<Invariant> => {
  const org = `'${organizationId.replace(/'/g, "")}'`
  const sql = <A>(query: string) => rowsOf<A>(database, query)

  const keys = sql<{ key: string; resource_id: string | null }>(
    `select key, resource_id from idempotency_keys where organization_id = ${org} and key like 'create-%'`
  )
  const byKey = new Map(keys.map((row) => [row.key, row.resource_id]))
  const payments = sql<{ id: string; status: string; amount: number; amount_captured: number; amount_refunded: number }>(
    `select id, status, amount, amount_captured, amount_refunded from payments where organization_id = ${org}`
  )

  const oneKeyOnePayment: Array<string> = []
  for (const [key, ids] of load.paymentsByKey) {
    if (ids.size > 1) oneKeyOnePayment.push(`${key} was answered with ${ids.size} payments: ${[...ids].join(", ")}`)
    const stored = byKey.get(key)
    if (stored !== undefined && stored !== null && !ids.has(stored)) {
      oneKeyOnePayment.push(`${key} names ${stored} in the database, but the client was told ${[...ids].join(", ")}`)
    }
  }
  const keysOfPayment = new Map<string, number>()
  for (const row of keys) if (row.resource_id !== null) keysOfPayment.set(row.resource_id, (keysOfPayment.get(row.resource_id) ?? 0) + 1)
  for (const payment of payments) {
    const count = keysOfPayment.get(payment.id) ?? 0
    if (count !== 1) oneKeyOnePayment.push(`${payment.id} is attached to ${count} Idempotency-Keys`)
  }

  const ledger = sql<{ payment_id: string; charges_taking_money: number; captured: number; refunded: number }>(
    `select a.payment_id,
        count(*) filter (where c.amount_captured > 0)::int as charges_taking_money,
        coalesce(sum(c.amount_captured), 0)::bigint as captured,
        coalesce(sum(c.amount_refunded), 0)::bigint as refunded
      from payment_attempts a join payments p on p.id = a.payment_id
      left join sandbox_charges c on c.reference = a.id
      where p.organization_id = ${org}
      group by a.payment_id`
  )
  const ledgerOf = new Map(ledger.map((row) => [row.payment_id, row]))
  const refunds = sql<{ payment_id: string; succeeded: number; pending: number }>(
    `select payment_id, coalesce(sum(amount) filter (where status = 'succeeded'), 0)::bigint as succeeded,
        count(*) filter (where status = 'pending')::int as pending
      from refunds where organization_id = ${org} group by payment_id`
  )
  const refundsOf = new Map(refunds.map((row) => [row.payment_id, row]))

  const chargedOnce: Array<string> = []
  const amountsAgree: Array<string> = []
  const noneProcessing: Array<string> = []
  for (const payment of payments) {
    const books = ledgerOf.get(payment.id)
    const taking = Number(books?.charges_taking_money ?? 0)
    if (payment.status === "succeeded" && taking !== 1) chargedOnce.push(`${payment.id} succeeded with ${taking} captured charges`)
    if ((payment.status === "failed" || payment.status === "canceled") && taking !== 0) {
      chargedOnce.push(`${payment.id} is ${payment.status} but the PSP captured ${taking} charges`)
    }
    if (Number(books?.captured ?? 0) !== Number(payment.amount_captured)) {
      amountsAgree.push(`${payment.id}: captured ${payment.amount_captured}, the PSP's books ${books?.captured ?? 0}`)
    }
    const refunded = Number(refundsOf.get(payment.id)?.succeeded ?? 0)
    if (refunded !== Number(payment.amount_refunded) || refunded !== Number(books?.refunded ?? 0)) {
      amountsAgree.push(
        `${payment.id}: refunded ${payment.amount_refunded} on the payment, ${refunded} in its refunds, ${books?.refunded ?? 0} at the PSP`
      )
    }
    if (payment.status === "processing") noneProcessing.push(`${payment.id} is still processing`)
  }
  for (const row of refunds) if (Number(row.pending) > 0) noneProcessing.push(`${row.payment_id} has ${row.pending} pending refunds`)

  const deliveries = sql<{ id: string; deliveries: number; succeeded: number }>(
    `select e.id, count(d.id)::int as deliveries, count(d.id) filter (where d.status = 'succeeded')::int as succeeded
      from events e left join webhook_deliveries d on d.event_id = e.id and d.endpoint_id = '${endpointId.replace(/'/g, "")}'
      where e.organization_id = ${org} and e.livemode = false
      group by e.id`
  )
  const oneDeliveryEach: Array<string> = []
  const receivedEach: Array<string> = []
  for (const row of deliveries) {
    if (row.deliveries !== 1) oneDeliveryEach.push(`${row.id} has ${row.deliveries} deliveries`)
    if ((received.get(row.id) ?? 0) < 1) receivedEach.push(`${row.id} never reached the receiver`)
  }
  const unanswered = load.unanswered.map((key) => `${key} never got a definitive answer`)
  // 503 (the database away) and 502/504 (the PSP away) say "retry"; a 500 is a bug.
  const bugs = Object.entries(load.byStatus)
    .filter(([answer]) => answer.startsWith("500"))
    .map(([answer, count]) => `${count} answers ${answer}`)

  return [
    { name: "every Idempotency-Key maps to one payment, every payment to one key", violations: oneKeyOnePayment },
    { name: "one captured charge per succeeded payment, none for failed or canceled", violations: chargedOnce },
    { name: "amounts agree between payment, refunds and the PSP's books", violations: amountsAgree },
    { name: "nothing left processing after reconciliation", violations: noneProcessing },
    { name: "every event has exactly one delivery per subscribed endpoint", violations: oneDeliveryEach },
    { name: "the receiver got every event at least once", violations: receivedEach },
    { name: "every request got a definitive answer", violations: unanswered },
    { name: "no answer was a 500", violations: bugs }
  ]
}

/** Whether the workers have finished: nothing processing, no refund pending, every event delivered. */
export const settled = (database: DatabaseTarget, organizationId: string) => {
  const org = `'${organizationId.replace(/'/g, "")}'`
  const [open] = rowsOf<{ processing: number; pending_refunds: number; undispatched: number; undelivered: number }>(
    database,
    `select
      (select count(*) from payments where organization_id = ${org} and status = 'processing')::int as processing,
      (select count(*) from refunds where organization_id = ${org} and status = 'pending')::int as pending_refunds,
      (select count(*) from events where organization_id = ${org} and dispatched_at is null)::int as undispatched,
      (select count(*) from webhook_deliveries where organization_id = ${org} and status <> 'succeeded')::int as undelivered`
  )
  return open!
}
