/** The bench's counts and durations: `BENCH_QUICK=1` runs every step smaller, in a few minutes. */
export const QUICK = process.env.BENCH_QUICK === "1"
export const PHASE_SECONDS = QUICK ? 5 : 15
export const WARM_UP_SECONDS = QUICK ? 8 : 10
export const CONNECTIONS = 32
/** The vaulted card against the PSP token: this many pairs of alternating slices of this many seconds. */
export const VAULTED_PAIRS = QUICK ? 3 : 4
export const VAULTED_SLICE_SECONDS = QUICK ? 2 : 4
export const SEQUENTIAL = QUICK ? 100 : 300
export const STORED = QUICK ? 100_000 : 1_000_000
export const BACKLOG = QUICK ? 10_000 : 100_000
export const COUNTED = QUICK ? 320 : 1_600
/** Rounds of the payment phases per build with `--against` (A B A B …; `BENCH_ROUNDS` changes it). */
export const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2) || 2)

export const log = (line: string) => console.log(`[bench] ${line}`)
export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits
