import { Data, Either } from "effect"

/** One allowed move and the event it emits. `from: null` is the creation of the object. */
export interface Move<S extends string, Ev extends string> {
  readonly from: S | null
  readonly to: S
  readonly event: Ev
}

export class IllegalTransition extends Data.TaggedError("IllegalTransition")<{
  readonly machine: string
  readonly from: string | null
  readonly to: string
}> {
  override get message() {
    return `${this.machine}: ${this.from ?? "(new)"} -> ${this.to} is not allowed`
  }
}

/** A state machine as data: the table is the only source of truth for what may happen. */
export interface StateMachine<S extends string, Ev extends string> {
  readonly name: string
  readonly states: ReadonlyArray<S>
  readonly moves: ReadonlyArray<Move<S, Ev>>
  readonly terminal: ReadonlyArray<S>
  readonly move: (from: S | null, to: S) => Either.Either<Move<S, Ev>, IllegalTransition>
}

export const make = <S extends string, Ev extends string>(options: {
  readonly name: string
  readonly states: ReadonlyArray<S>
  readonly moves: ReadonlyArray<Move<S, Ev>>
}): StateMachine<S, Ev> => {
  const table = new Map(options.moves.map((move) => [`${move.from ?? ""}>${move.to}`, move]))
  return {
    ...options,
    terminal: options.states.filter((state) => !options.moves.some((move) => move.from === state)),
    move: (from, to) => {
      const found = table.get(`${from ?? ""}>${to}`)
      return found === undefined
        ? Either.left(new IllegalTransition({ machine: options.name, from, to }))
        : Either.right(found)
    }
  }
}
