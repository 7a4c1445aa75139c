import { Context, Effect, Layer, Option } from "effect"

export type ChargeStatus = "requires_action" | "authorized" | "succeeded" | "failed" | "canceled"

/** A payment as the sandbox PSP keeps it. */
export interface SandboxCharge {
  readonly id: string
  readonly connectionId: string
  /** The idempotency reference it was created under: one charge per reference, ever. */
  readonly reference: string
  /** The merchant's own id for the payment (our payment id). */
  readonly merchantReference: string
  readonly amount: number
  readonly currency: string
  readonly token: string
  readonly capture: boolean
  readonly status: ChargeStatus
  readonly amountCaptured: number
  readonly amountRefunded: number
  /** The reference of the capture that captured it, so that capture can be answered again. */
  readonly captureReference: string | null
  readonly failureCode: string | null
  readonly failureMessage: string | null
  readonly returnUrl: string
  readonly createdAtMillis: number
}

export interface SandboxRefund {
  readonly id: string
  readonly connectionId: string
  readonly reference: string
  readonly chargeId: string
  readonly amount: number
  /** `pending` refunds settle later, and the sandbox says so by webhook. */
  readonly status: "pending" | "succeeded" | "failed"
  readonly failureCode: string | null
  readonly failureMessage: string | null
  readonly createdAtMillis: number
  /** When a pending refund settles. */
  readonly settleAtMillis: number | null
}

/** A webhook the sandbox owes a connection: sent, signed, until the service takes it (2xx). */
export interface SandboxNotification {
  readonly id: string
  readonly connectionId: string
  /** The exact JSON body. */
  readonly payload: string
  readonly createdAtMillis: number
}

/** A subscription's status in the sandbox's books; `incomplete` until its first period is paid. */
export type SandboxSubscriptionStatus =
  | "incomplete"
  | "trialing"
  | "active"
  | "past_due"
  | "unpaid"
  | "canceled"
  | "incomplete_expired"

/** A subscription the sandbox runs itself (`engine: native`): its schedule, on its own clock. */
export interface SandboxSubscription {
  readonly id: string
  readonly connectionId: string
  /** The merchant's subscription id: one subscription per reference, ever. */
  readonly reference: string
  readonly amount: number
  readonly currency: string
  readonly interval: "day" | "week" | "month" | "year"
  readonly intervalCount: number
  /** Period `n` starts `n` intervals after the anchor (the trial's end, or the creation). */
  readonly anchorMillis: number
  readonly token: string
  readonly status: SandboxSubscriptionStatus
  /** The period being collected, 0 for the first. */
  readonly period: number
  /** Charge attempts made on that period's invoice. */
  readonly attempts: number
  readonly firstFailureMillis: number | null
  readonly cancelAtPeriodEnd: boolean
  /** On a merchant's test clock: only `advance` moves it, never the sandbox's real-time schedule. */
  readonly onTestClock: boolean
  /** When the sandbox next acts on it (a period's charge, a retry); null: never again. */
  readonly nextRunMillis: number | null
  /** Bumped on every save: a save based on an older read is refused. */
  readonly version: number
  readonly createdAtMillis: number
}

/** What a status change may also set. */
export type ChargeChanges = Partial<
  Pick<SandboxCharge, "status" | "amountCaptured" | "captureReference" | "failureCode" | "failureMessage">
>

/** How a refund the charge cannot cover is stored. */
export const OVER_REFUND = {
  failureCode: "amount_too_large",
  failureMessage: "The refund exceeds what is left on the charge."
} as const

/**
 * The sandbox PSP's own books. Kept apart from the orchestrator's tables, as a real PSP's would be,
 * and durable, so "charged once" holds across crashes and restarts. Every change is one atomic,
 * conditional step, so concurrent calls (a capture racing a cancel, two refunds) cannot lose a write.
 */
export class SandboxLedger extends Context.Tag("connectors/SandboxLedger")<SandboxLedger, {
  /** Stores the charge unless one exists under its reference; returns the stored one either way. */
  readonly recordCharge: (charge: SandboxCharge) => Effect.Effect<{ readonly charge: SandboxCharge; readonly created: boolean }>
  /** Moves a charge that is in one of `from`; `None` when it is in none of them (someone else moved it). */
  readonly transitionCharge: (
    id: string,
    from: ReadonlyArray<ChargeStatus>,
    changes: ChargeChanges
  ) => Effect.Effect<Option.Option<SandboxCharge>>
  readonly findCharge: (id: string) => Effect.Effect<Option.Option<SandboxCharge>>
  readonly findChargeByReference: (connectionId: string, reference: string) => Effect.Effect<Option.Option<SandboxCharge>>
  /**
   * Stores the refund unless one exists under its reference. A succeeded refund takes its amount off
   * the charge in the same step, and is stored failed (`amount_too_large`) when the charge cannot cover it.
   */
  readonly recordRefund: (refund: SandboxRefund) => Effect.Effect<{ readonly refund: SandboxRefund; readonly created: boolean }>
  readonly findRefundByReference: (connectionId: string, reference: string) => Effect.Effect<Option.Option<SandboxRefund>>
  /** Charges that moved or reserved money for a merchant reference: the "charged once" proof. */
  readonly countCharges: (merchantReference: string) => Effect.Effect<number>
  /**
   * Settles pending refunds due by `nowMillis`: each takes its amount off its charge, or fails when
   * the charge cannot cover it. Returns the refunds it settled.
   */
  readonly settleDueRefunds: (nowMillis: number, limit: number) => Effect.Effect<ReadonlyArray<SandboxRefund>>
  readonly notify: (notification: SandboxNotification) => Effect.Effect<void>
  /** Notifications not yet taken, oldest first, each held by one sender until `leaseUntilMillis`. */
  readonly claimNotifications: (
    nowMillis: number,
    leaseUntilMillis: number,
    limit: number
  ) => Effect.Effect<ReadonlyArray<SandboxNotification>>
  readonly markNotified: (id: string, nowMillis: number) => Effect.Effect<void>
  /** Stores the subscription unless one exists under its reference; returns the stored one either way. */
  readonly recordSubscription: (
    subscription: SandboxSubscription
  ) => Effect.Effect<{ readonly subscription: SandboxSubscription; readonly created: boolean }>
  readonly findSubscription: (id: string) => Effect.Effect<Option.Option<SandboxSubscription>>
  /** Subscriptions on the real clock with something due by `nowMillis`, earliest first. */
  readonly dueSubscriptions: (nowMillis: number, limit: number) => Effect.Effect<ReadonlyArray<SandboxSubscription>>
  /** Saves `next` (whose `version` is one above the stored one's) unless someone saved in between. */
  readonly saveSubscription: (next: SandboxSubscription) => Effect.Effect<boolean>
}>() {
  static readonly layerMemory = Layer.sync(SandboxLedger, () => {
    const charges = new Map<string, SandboxCharge>()
    const refunds = new Map<string, SandboxRefund>()
    const notifications = new Map<string, SandboxNotification & { sentAt: number | null; leaseUntil: number }>()
    const subscriptions = new Map<string, SandboxSubscription>()
    /** Takes a refund's amount off its charge, if it covers it; the refund as it ends up. */
    const cover = (refund: SandboxRefund): SandboxRefund => {
      const charge = charges.get(refund.chargeId)
      if (charge === undefined || charge.amountRefunded + refund.amount > charge.amountCaptured) {
        return { ...refund, status: "failed", ...OVER_REFUND }
      }
      charges.set(charge.id, { ...charge, amountRefunded: charge.amountRefunded + refund.amount })
      return { ...refund, status: "succeeded" }
    }
    const byReference = <A extends { connectionId: string; reference: string }>(rows: Map<string, A>, c: string, r: string) =>
      Option.fromNullable([...rows.values()].find((row) => row.connectionId === c && row.reference === r))
    return {
      recordCharge: (charge) =>
        Effect.sync(() => {
          const existing = byReference(charges, charge.connectionId, charge.reference)
          if (Option.isSome(existing)) return { charge: existing.value, created: false }
          charges.set(charge.id, charge)
          return { charge, created: true }
        }),
      transitionCharge: (id, from, changes) =>
        Effect.sync(() => {
          const charge = charges.get(id)
          if (charge === undefined || !from.includes(charge.status)) return Option.none()
          const moved = { ...charge, ...changes }
          charges.set(id, moved)
          return Option.some(moved)
        }),
      findCharge: (id) => Effect.sync(() => Option.fromNullable(charges.get(id))),
      findChargeByReference: (connectionId, reference) => Effect.sync(() => byReference(charges, connectionId, reference)),
      recordRefund: (refund) =>
        Effect.sync(() => {
          const existing = byReference(refunds, refund.connectionId, refund.reference)
          if (Option.isSome(existing)) return { refund: existing.value, created: false }
          const stored = refund.status === "succeeded" ? cover(refund) : refund
          refunds.set(stored.id, stored)
          return { refund: stored, created: true }
        }),
      findRefundByReference: (connectionId, reference) => Effect.sync(() => byReference(refunds, connectionId, reference)),
      countCharges: (merchantReference) =>
        Effect.sync(() => [...charges.values()].filter((charge) => charge.merchantReference === merchantReference && charge.status !== "failed").length),
      settleDueRefunds: (nowMillis, limit) =>
        Effect.sync(() => {
          const due = [...refunds.values()]
            .filter((refund) => refund.status === "pending" && refund.settleAtMillis !== null && refund.settleAtMillis <= nowMillis)
            .slice(0, limit)
          return due.map((refund) => {
            const settled = { ...cover(refund), settleAtMillis: null }
            refunds.set(refund.id, settled)
            return settled
          })
        }),
      notify: (notification) => Effect.sync(() => void notifications.set(notification.id, { ...notification, sentAt: null, leaseUntil: 0 })),
      claimNotifications: (nowMillis, leaseUntilMillis, limit) =>
        Effect.sync(() => {
          const due = [...notifications.values()]
            .filter((notification) => notification.sentAt === null && notification.leaseUntil < nowMillis)
            .slice(0, limit)
          for (const notification of due) notifications.set(notification.id, { ...notification, leaseUntil: leaseUntilMillis })
          return due.map(({ leaseUntil: _, sentAt: __, ...notification }) => notification)
        }),
      markNotified: (id, nowMillis) =>
        Effect.sync(() => {
          const notification = notifications.get(id)
          if (notification !== undefined) notifications.set(id, { ...notification, sentAt: nowMillis })
        }),
      recordSubscription: (subscription) =>
        Effect.sync(() => {
          const existing = byReference(subscriptions, subscription.connectionId, subscription.reference)
          if (Option.isSome(existing)) return { subscription: existing.value, created: false }
          subscriptions.set(subscription.id, subscription)
          return { subscription, created: true }
        }),
      findSubscription: (id) => Effect.sync(() => Option.fromNullable(subscriptions.get(id))),
      dueSubscriptions: (nowMillis, limit) =>
        Effect.sync(() =>
          [...subscriptions.values()]
            .filter((subscription) => !subscription.onTestClock && subscription.nextRunMillis !== null && subscription.nextRunMillis <= nowMillis)
            .sort((a, b) => a.nextRunMillis! - b.nextRunMillis!)
            .slice(0, limit)
        ),
      saveSubscription: (next) =>
        Effect.sync(() => {
          const stored = subscriptions.get(next.id)
          if (stored === undefined || stored.version + 1 !== next.version) return false
          subscriptions.set(next.id, next)
          return true
        })
    }
  })
}
