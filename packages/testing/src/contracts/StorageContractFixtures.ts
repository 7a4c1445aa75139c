import { expect, type Vitest } from "@effect/vitest"
import {
  type Currency,
  Customer,
  type Event,
  makeId,
  Organization,
  OrganizationsRepository,
  Payment,
  PaymentAttempt,
  PaymentMethod,
  Plan,
  Refund,
  type StoragePorts,
  SubscriptionRecord,
  type Tenant
} from "@orchestrator/core"
import { DateTime, Effect, Schema } from "effect"

/** The `it` of the storage contract's layer: every contract file registers its tests on it. */
export type StorageContractTest = Vitest.MethodsNonLive<StoragePorts, true>

export const at = (millis: number) => DateTime.unsafeMake(Date.UTC(2026, 10, 22, 9, 0, 0) + millis)
let sequence = 0
export const id = (prefix: "pay" | "org" | "att" | "ref" | "evt" | "key" | "pcn" | "cus" | "plan" | "sub" | "in" | "clock" | "dp" | "file") =>
  makeId(prefix, Date.now() + sequence++)

export const newTenant = Effect.gen(function*() {
  const organization = new Organization({
    id: id("org"),
    name: `Org ${id("org")}`,
    default_provider_test: "sandbox_a",
    default_provider_live: null,
    payments_routing_test: "default",
    payments_routing_live: "default",
    created_at: at(0)
  })
  yield* (yield* OrganizationsRepository).insert(organization)
  return { organizationId: organization.id, livemode: false } satisfies Tenant
})

export const attempt = (overrides: Partial<PaymentAttempt> = {}) =>
  new PaymentAttempt({
    object: "payment_attempt",
    id: id("att"),
    provider: "sandbox_a",
    status: "pending",
    provider_payment_id: null,
    error_code: null,
    latency_ms: null,
    created_at: at(0),
    ...overrides
  })

export const payment = (tenant: Tenant, overrides: Partial<Payment> = {}) =>
  new Payment({
    object: "payment",
    id: id("pay"),
    status: "processing",
    amount: 1050,
    amount_captured: 0,
    amount_refunded: 0,
    amount_disputed: 0,
    disputed: false,
    currency: "EUR" as Currency,
    provider: "sandbox_a",
    provider_payment_id: null,
    routing: { strategy: "default", rule_id: null },
    payment_method: new PaymentMethod({ type: "card", token: "tok_visa", brand: null, last4: null, country: null }),
    customer_id: null,
    description: null,
    metadata: {},
    capture: true,
    off_session: false,
    return_url: null,
    next_action: null,
    failure: null,
    attempts: [attempt()],
    created_at: at(0),
    updated_at: at(0),
    livemode: tenant.livemode,
    ...overrides
  })

export const refund = (tenant: Tenant, paymentId: string, overrides: Partial<Refund> = {}) =>
  new Refund({
    object: "refund",
    id: id("ref"),
    payment_id: paymentId,
    amount: 500,
    currency: "EUR" as Currency,
    status: "pending",
    reason: null,
    provider_refund_id: null,
    failure: null,
    metadata: {},
    created_at: at(0),
    updated_at: at(0),
    livemode: tenant.livemode,
    ...overrides
  })

export const paymentEvent = (object: Payment, millis: number, type: Event["type"] = "payment.created"): Event => ({
  object: "event",
  id: id("evt"),
  type,
  api_version: "2026-11-01",
  created_at: at(millis),
  livemode: object.livemode,
  data: { object }
} as Event)

/** Compares through the wire encoding, so `DateTime`s and classes compare by value. */
export const same = <A, I>(schema: Schema.Schema<A, I>, actual: A, expected: A) =>
  expect(Schema.encodeSync(schema)(actual)).toEqual(Schema.encodeSync(schema)(expected))

export const page = (limit: number, startingAfter?: string) => ({ limit, startingAfter })

/** A test-mode customer, on `testClock` if given. */
export const customer = (testClock: string | null) =>
  new Customer({
    object: "customer",
    id: id("cus"),
    email: "a@example.com",
    name: null,
    metadata: {},
    test_clock: testClock,
    created_at: at(0),
    livemode: false
  })

/** A test-mode plan of 19.99 EUR a month. */
export const monthlyPlan = () =>
  new Plan({
    object: "plan",
    id: id("plan"),
    amount: 1999,
    currency: "EUR" as Currency,
    interval: "month",
    interval_count: 1,
    trial_days: null,
    metadata: {},
    created_at: at(0),
    livemode: false
  })

/** An active subscription of `owner` to `plan`, next due at `nextRunAt`. */
export const subscription = (plan: Plan, owner: Customer, nextRunAt: number, createdAt: number) =>
  new SubscriptionRecord({
    id: id("sub"),
    status: "active",
    customer_id: owner.id,
    plan_id: plan.id,
    provider: "sandbox_a",
    provider_forced: false,
    engine: "orchestrator",
    payment_method: "tok_visa",
    return_url: null,
    current_period_start: at(0),
    current_period_end: at(nextRunAt),
    billing_cycle_anchor: at(0),
    cancel_at_period_end: false,
    canceled_at: null,
    trial_end: null,
    pending_update: null,
    provider_subscription_id: null,
    test_clock: owner.test_clock,
    metadata: {},
    latest_invoice_id: null,
    next_run_at: at(nextRunAt),
    created_at: at(createdAt),
    updated_at: at(createdAt),
    livemode: false
  })
