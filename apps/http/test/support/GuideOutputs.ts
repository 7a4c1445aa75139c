/**
 * What a guide says a command prints, read as the docs test checks it against what the service
 * answered. A guide writes answers the way a reader sees them, shortened with `…`:
 * `{"error":{"type":"idempotency_error","code":"idempotency_key_reused",…}}`. Each field written is
 * a field the answer must have with that value; `…` stands for whatever the guide left out (fields,
 * elements, the rest of a string: `"pay_…"` is any string that starts with `pay_`).
 */
export type Expected =
  | { readonly kind: "object"; readonly entries: ReadonlyArray<readonly [string, Expected]> }
  | { readonly kind: "array"; readonly items: ReadonlyArray<Expected> }
  | { readonly kind: "string"; readonly pieces: ReadonlyArray<string> }
  | { readonly kind: "literal"; readonly value: number | boolean | null }

const ELLIPSIS = "…"

type Token =
  | { readonly kind: "punct"; readonly value: string }
  | { readonly kind: "string"; readonly value: string }
  | { readonly kind: "literal"; readonly value: number | boolean | null }
  | { readonly kind: "ellipsis" }

/** The tokens of a shortened JSON value; `undefined` at the first character JSON would not have. */
const tokenize = (text: string): Array<Token> | undefined => {
  const tokens: Array<Token> = []
  let at = 0
  while (at < text.length) {
    const char = text[at]!
    if (/\s/.test(char)) {
      at++
    } else if ("{}[]:,".includes(char)) {
      tokens.push({ kind: "punct", value: char })
      at++
    } else if (char === ELLIPSIS || text.startsWith("...", at)) {
      // An ellipsis stands for a run of left-out content, words included (`[…newest first]`).
      at += char === ELLIPSIS ? 1 : 3
      while (at < text.length && !",]}".includes(text[at]!)) at++
      tokens.push({ kind: "ellipsis" })
    } else if (char === "\"") {
      let end = at + 1
      while (end < text.length && text[end] !== "\"") end += text[end] === "\\" ? 2 : 1
      if (end >= text.length) return undefined
      tokens.push({ kind: "string", value: JSON.parse(text.slice(at, end + 1)) as string })
      at = end + 1
    } else {
      const literal = /^(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(at))
      if (literal === null) return tokens
      tokens.push({ kind: "literal", value: JSON.parse(literal[1]!) as number | boolean | null })
      at += literal[1]!.length
    }
  }
  return tokens
}

/** Reads the value at `tokens[start]`; the index after it, or `undefined` when it is not a value. */
const readValue = (tokens: ReadonlyArray<Token>, start: number): readonly [Expected, number] | undefined => {
  const token = tokens[start]
  if (token === undefined) return undefined
  if (token.kind === "string") return [{ kind: "string", pieces: token.value.split(ELLIPSIS) }, start + 1]
  if (token.kind === "literal") return [{ kind: "literal", value: token.value }, start + 1]
  if (token.kind !== "punct" || (token.value !== "{" && token.value !== "[")) return undefined
  const object = token.value === "{"
  const close = object ? "}" : "]"
  const entries: Array<readonly [string, Expected]> = []
  const items: Array<Expected> = []
  let at = start + 1
  for (;;) {
    const next = tokens[at]
    if (next === undefined) return undefined
    if (next.kind === "punct" && next.value === close) break
    if (next.kind === "ellipsis" || (next.kind === "punct" && next.value === ",")) {
      at++
      continue
    }
    if (object) {
      const colon = tokens[at + 1]
      if (next.kind !== "string" || colon?.kind !== "punct" || colon.value !== ":") return undefined
      if (tokens[at + 2]?.kind === "ellipsis") {
        at += 3
        continue
      }
      const value = readValue(tokens, at + 2)
      if (value === undefined) return undefined
      entries.push([next.value, value[0]])
      at = value[1]
    } else {
      const value = readValue(tokens, at)
      if (value === undefined) return undefined
      items.push(value[0])
      at = value[1]
    }
  }
  return [object ? { kind: "object", entries } : { kind: "array", items }, at + 1]
}

/**
 * The shortened JSON value a guide's text begins with (`{"queued": 0}: nothing is exhausted yet`),
 * or `undefined` when it begins with words. Members written without braces (`"status": "pending",
 * "next_action": {…}`) are read as one object.
 */
export const readExpected = (text: string): Expected | undefined => {
  const trimmed = text.trim()
  const tokens = tokenize(/^"[^"]*"\s*:/.test(trimmed) ? `{${trimmed}}` : trimmed)
  if (tokens === undefined || tokens.length === 0) return undefined
  const value = readValue(tokens, 0)
  return value === undefined || value[0].kind === "string" || value[0].kind === "literal" ? undefined : value[0]
}

const matchesString = (pieces: ReadonlyArray<string>, actual: string): boolean => {
  if (pieces.length === 1) return actual === pieces[0]
  if (!actual.startsWith(pieces[0]!) || !actual.endsWith(pieces.at(-1)!)) return false
  let at = pieces[0]!.length
  for (const piece of pieces.slice(1, -1)) {
    const found = actual.indexOf(piece, at)
    if (found === -1) return false
    at = found + piece.length
  }
  return at <= actual.length - pieces.at(-1)!.length
}

/** Whether `actual` has every field and element `expected` writes, with the values written. */
export const matches = (expected: Expected, actual: unknown): boolean => {
  switch (expected.kind) {
    case "literal":
      return actual === expected.value
    case "string":
      return typeof actual === "string" && matchesString(expected.pieces, actual)
    case "array":
      return Array.isArray(actual) && expected.items.every((item) => actual.some((each) => matches(item, each)))
    case "object":
      return typeof actual === "object" && actual !== null && !Array.isArray(actual) &&
        expected.entries.every(([key, value]) => key in actual && matches(value, (actual as Record<string, unknown>)[key]))
  }
}

/** Whether `expected` matches `actual` or any object or array inside it (a `jq` projection of an answer). */
export const matchesWithin = (expected: Expected, actual: unknown): boolean =>
  matches(expected, actual) ||
  (typeof actual === "object" && actual !== null && Object.values(actual).some((child) => matchesWithin(expected, child)))

/** A line a guide shows as printed (`payment.succeeded pay_… (succeeded) evt_…`), `…` standing for anything. */
export const matchesLine = (expected: string, actual: string): boolean => matchesString(expected.trim().split(ELLIPSIS), actual.trim())

/** Every JSON value printed in `text` (answers, `jq` output, pretty or on one line), in order. */
export const jsonValuesIn = (text: string): Array<unknown> => {
  const values: Array<unknown> = []
  let depth = 0
  let start = -1
  let inString = false
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!
    if (inString) {
      if (char === "\\") at++
      else if (char === "\"") inString = false
      continue
    }
    if (char === "\"" && depth > 0) inString = true
    else if (char === "{" || char === "[") {
      if (depth === 0) start = at
      depth++
    } else if ((char === "}" || char === "]") && depth > 0) {
      depth--
      if (depth === 0) {
        try {
          values.push(JSON.parse(text.slice(start, at + 1)))
        } catch {
          // Not JSON after all (a bracket in words).
        }
      }
    }
  }
  return values
}

/** What one runnable block printed and what the service answered its `curl`s, for the comparison. */
export interface BlockOutput {
  /** Its standard output (answers printed, `jq` and `echo` output, a receiver's log `cat` out). */
  readonly printed: string
  /** Every answer's body, as received, in order. */
  readonly answers: ReadonlyArray<string>
}

/** What a guide shows for one block: a `# → …` comment in it, or a `json` block right after it. */
export interface ShownOutput {
  readonly block: number
  readonly line: number
  readonly lines: ReadonlyArray<string>
}

/**
 * Each thing a guide shows that its block did not print or answer, as a sentence naming the guide's
 * line. A value (`{…}`) must match an answer of the block or a JSON value it printed, or something
 * inside one (a projection with `jq`); words must match a printed line, `…` standing for anything.
 * The guides write the service's address as `http://localhost:3000`: it stands for `serviceUrl`.
 */
export const unshown = (shown: ReadonlyArray<ShownOutput>, outputs: ReadonlyMap<number, BlockOutput>, serviceUrl: string): Array<string> =>
  shown.flatMap(({ block, line, lines }) => {
    const output = outputs.get(block)
    const text = lines.map((each) => each.replaceAll("http://localhost:3000", serviceUrl))
    if (output === undefined) return [`line ${line}: the block at line ${block} did not run`]
    const expected = readExpected(text.join(" "))
    if (expected !== undefined) {
      const candidates = [...output.answers.flatMap(jsonValuesIn), ...jsonValuesIn(output.printed)]
      return candidates.some((candidate) => matchesWithin(expected, candidate))
        ? []
        : [`line ${line}: shows ${text.join(" ")}\n  but the block's answers were: ${output.answers.join("\n  ").slice(0, 1500)}`]
    }
    const printed = output.printed.split("\n")
    return text.filter((each) => !printed.some((actual) => matchesLine(each, actual)))
      .map((each) => `line ${line}: shows "${each}"\n  but the block printed: ${output.printed.slice(0, 1500)}`)
  })
