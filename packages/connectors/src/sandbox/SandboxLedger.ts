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
}>() {
  static readonly layerMemory = Layer.sync(SandboxLedger, () => {
    const charges = new Map<string, SandboxCharge>()
    const refunds = new Map<string, SandboxRefund>()
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
      findChargeByReference: (connectionId, reference) =>
        Effect.sync(() => byReference(charges, connectionId, reference)),
      recordRefund: (refund) =>
        Effect.sync(() => {
          const existing = byReference(refunds, refund.connectionId, refund.reference)
          if (Option.isSome(existing)) return { refund: existing.value, created: false }
          const charge = charges.get(refund.chargeId)
          let stored = refund
          if (refund.status === "succeeded") {
            if (charge === undefined || charge.amountRefunded + refund.amount > charge.amountCaptured) {
              stored = { ...refund, status: "failed", ...OVER_REFUND }
            } else {
              charges.set(charge.id, { ...charge, amountRefunded: charge.amountRefunded + refund.amount })
            }
          }
          refunds.set(stored.id, stored)
          return { refund: stored, created: true }
        }),
      findRefundByReference: (connectionId, reference) =>
        Effect.sync(() => byReference(refunds, connectionId, reference)),
      countCharges: (merchantReference) =>
        Effect.sync(() =>
          [...charges.values()].filter((charge) =>
            charge.merchantReference === merchantReference && charge.status !== "failed"
          ).length
        )
    }
  })
}

