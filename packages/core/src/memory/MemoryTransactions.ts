import { Effect, Layer } from "effect"
import { Transactions } from "../ports/Transactions.js"
import { MemoryStore } from "./MemoryStore.js"

/** The shared `MemoryStore`'s transaction: one writer at a time; a failure restores the snapshot. */
export const MemoryTransactions = Layer.effect(Transactions, Effect.map(MemoryStore, (store) => ({ run: store.transaction })))
