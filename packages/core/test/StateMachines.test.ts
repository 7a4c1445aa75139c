import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import * as fc from "fast-check"
import { PaymentStateMachine } from "../src/domain/payments/PaymentStateMachine.js"
import { RefundStateMachine } from "../src/domain/refunds/RefundStateMachine.js"
import type { StateMachine } from "../src/domain/StateMachine.js"

const allowed = <S extends string>(machine: StateMachine<S, string>, from: S | null, to: S) =>
  machine.moves.some((move) => move.from === from && move.to === to)

const checkMachine = <S extends string>(machine: StateMachine<S, string>) => {
  const state = fc.constantFrom<S | null>(null, ...machine.states)
  const target = fc.constantFrom<S>(...machine.states)

  it("walks only the moves of its table, whatever it is asked", () => {
    fc.assert(fc.property(fc.array(target, { maxLength: 40 }), (requests) => {
      let current: S | null = null
      for (const to of requests) {
        const result = machine.move(current, to)
        expect(Either.isRight(result)).toBe(allowed(machine, current, to))
        if (Either.isRight(result)) {
          expect(result.right.event).toBe(`${machine.name}.${to}`)
          current = to
        }
      }
    }))
  })

  it("refuses every pair outside the table", () => {
    fc.assert(fc.property(state, target, (from, to) => {
      fc.pre(!allowed(machine, from, to))
      expect(Either.isLeft(machine.move(from, to))).toBe(true)
    }))
  })

  it("never leaves a terminal state, and reaches every state from creation", () => {
    for (const terminal of machine.terminal) {
      for (const to of machine.states) expect(Either.isLeft(machine.move(terminal, to))).toBe(true)
    }
    const reached = new Set<S | null>([null])
    for (let changed = true; changed;) {
      changed = false
      for (const move of machine.moves) {
        if (reached.has(move.from) && !reached.has(move.to)) {
          reached.add(move.to)
          changed = true
        }
      }
    }
    expect([...reached].filter((s) => s !== null).sort()).toEqual([...machine.states].sort())
  })
}

describe("payment state machine", () => {
  checkMachine(PaymentStateMachine)

  it("has exactly the terminal states", () => {
    expect([...PaymentStateMachine.terminal].sort()).toEqual(["canceled", "failed", "succeeded"])
  })
})

describe("refund state machine", () => {
  checkMachine(RefundStateMachine)

  it("settles a pending refund once, as succeeded or failed", () => {
    expect([...RefundStateMachine.terminal].sort()).toEqual(["failed", "succeeded"])
  })
})
