import { readFileSync } from "node:fs"

/**
 * A guide's fenced code blocks, as the docs test reads them: an `sh` block is run (every `curl` in
 * it must answer a 2xx), `sh status=402` expects that status of each `curl` instead, and
 * `sh no-run: why` is shown but not run. Other languages (json, text, js, html) are illustrations.
 */
export type GuideBlock =
  | {
    readonly kind: "run"
    readonly line: number
    readonly code: string
    readonly expectStatus: string
    /** What the block says its commands print: each `# → …` comment, with the comment lines under it. */
    readonly shown: ReadonlyArray<Shown>
  }
  | { readonly kind: "skip"; readonly line: number; readonly code: string; readonly reason: string }
  | { readonly kind: "illustration"; readonly line: number; readonly language: string; readonly code: string }

/** One `# → …` comment of a block: the guide's line of it, and its text line by line (without `#`). */
export interface Shown {
  readonly line: number
  readonly lines: ReadonlyArray<string>
}

const SHOWN = /(?:^|\s)# → (.*)$/
const CONTINUED = /^\s*#(?!.*→)\s(.*)$/

/** The `# → …` comments of a block's code, each with the comment lines that continue it. */
const shownIn = (code: string, firstLine: number): Array<Shown> => {
  const lines = code.split("\n")
  const shown: Array<Shown> = []
  for (let index = 0; index < lines.length; index++) {
    const start = SHOWN.exec(lines[index]!)
    if (start === null) continue
    const text = [start[1]!]
    while (index + 1 < lines.length && CONTINUED.test(lines[index + 1]!)) text.push(CONTINUED.exec(lines[++index]!)![1]!)
    shown.push({ line: firstLine + index - text.length + 1, lines: text })
  }
  return shown
}

const FENCE = /^```(\S*)(?:[ \t]+(.*))?$/

export const guideBlocks = (markdown: string): ReadonlyArray<GuideBlock> => {
  const lines = markdown.split("\n")
  const blocks: Array<GuideBlock> = []
  for (let index = 0; index < lines.length; index++) {
    const open = FENCE.exec(lines[index]!)
    if (open === null) continue
    const start = index
    const body: Array<string> = []
    while (++index < lines.length && lines[index] !== "```") body.push(lines[index]!)
    const [, language = "", info = ""] = open
    const code = body.join("\n")
    const line = start + 1
    if (language !== "sh") blocks.push({ kind: "illustration", line, language, code })
    else if (info.startsWith("no-run")) blocks.push({ kind: "skip", line, code, reason: info.replace(/^no-run:?\s*/, "") })
    else blocks.push({ kind: "run", line, code, expectStatus: /status=(\d{3})/.exec(info)?.[1] ?? "2xx", shown: shownIn(code, line + 1) })
  }
  return blocks
}

export const readGuide = (directory: URL, name: string) => readFileSync(new URL(`${name}.md`, directory), "utf8")

/**
 * `curl` as the guides' blocks meet it: it prints the body, keeps a copy in `$GUIDE_RECORDS` (named
 * after the block, for the test to compare with what the guide shows), and fails the block when the
 * status is not the one the block expects. A command that writes its own output (`-o`, `-w`) is run as is.
 */
const CURL = String.raw`curl() {
  case " $* " in *" -o "*|*" -w "*) command curl "$@"; return;; esac
  local body status url
  for url in "$@"; do case "$url" in http*) break;; esac; done
  body=$(mktemp)
  status=$(command curl -sS -o "$body" -w '%{http_code}' "$@") || { cat "$body"; rm -f "$body"; return 1; }
  if [ -n "$GUIDE_RECORDS" ]; then cp "$body" "$GUIDE_RECORDS/$GUIDE_BLOCK-$(date +%s%N)"; fi
  cat "$body"; echo; rm -f "$body"
  if [ "$GUIDE_EXPECT" = 2xx ]; then
    case "$status" in 2??) ;; *) echo "HTTP $status, expected a 2xx, from $url" >&2; return 22;; esac
  elif [ "$status" != "$GUIDE_EXPECT" ]; then
    echo "HTTP $status, expected $GUIDE_EXPECT, from $url" >&2; return 22
  fi
}`

/** What the script prints on its standard output before each block's output. */
export const BLOCK_MARK = "### guide block at line "

/** One bash script for a guide: its runnable blocks in order, sharing their variables, stopping at the first failure. */
export const guideScript = (name: string, blocks: ReadonlyArray<GuideBlock>) =>
  [
    "set -euo pipefail",
    // Where `curl` keeps the answers; none kept unless the test says where.
    "GUIDE_RECORDS=\"$" + "{GUIDE_RECORDS:-}\"",
    // A guide's background processes (a webhook receiver) end with it, whatever happened.
    "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT",
    CURL,
    ...blocks.flatMap((block) =>
      block.kind === "run"
        ? [
          `echo "--- ${name}.md block at line ${block.line}" >&2`,
          `echo "${BLOCK_MARK}${block.line}"`,
          `GUIDE_EXPECT=${block.expectStatus}`,
          `GUIDE_BLOCK=${block.line}`,
          block.code
        ]
        : []
    )
  ].join("\n")
