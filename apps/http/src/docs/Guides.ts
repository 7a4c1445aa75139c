import { Marked } from "marked"
import { readdirSync, readFileSync } from "node:fs"

/** The guides, in the order the index lists them: each is `docs/guides/<name>.md`. */
export const GUIDE_NAMES = [
  "quick-start",
  "idempotency",
  "3d-secure",
  "webhooks",
  "routing",
  "vault",
  "subscriptions",
  "checkout",
  "disputes",
  "going-live",
  "errors"
] as const

export interface Guide {
  readonly name: string
  readonly title: string
  /** The first paragraph, shown under the title in the index. */
  readonly summary: string
  readonly markdown: string
}

/**
 * Where the Markdown files are: beside the built bundle (`pnpm build` copies them), else in the
 * repository's `docs/guides/`, read from the sources.
 */
const guidesDirectory = (): URL => {
  for (const candidate of [new URL("./guides/", import.meta.url), new URL("../../../../docs/guides/", import.meta.url)]) {
    try {
      if (readdirSync(candidate).some((file) => file.endsWith(".md"))) return candidate
    } catch {
      // not this one
    }
  }
  throw new Error("The docs guides (docs/guides/*.md) are missing")
}

const titleOf = (markdown: string, name: string) => /^# (.+)$/m.exec(markdown)?.[1]?.trim() ?? name

const summaryOf = (markdown: string) =>
  markdown.split(/\n\s*\n/).map((block) => block.trim()).find((block) => block !== "" && !/^[#`|>-]/.test(block))?.replace(/\s+/g, " ") ?? ""

/** Every guide, read once. */
export const loadGuides = (): ReadonlyArray<Guide> => {
  const directory = guidesDirectory()
  return GUIDE_NAMES.map((name) => {
    const markdown = readFileSync(new URL(`${name}.md`, directory), "utf8")
    return { name, title: titleOf(markdown, name), summary: summaryOf(markdown), markdown }
  })
}

/**
 * Links between guides are written `other.md` (so they work where the files are read on their own)
 * and become the page `/docs/guides/other`.
 */
const markdown = new Marked({
  gfm: true,
  walkTokens: (token) => {
    if (token.type === "link" && /^[a-z0-9-]+\.md(#.*)?$/.test(token.href)) token.href = token.href.replace(/\.md/, "")
  }
})

/** The guide's HTML body. Its Markdown is the repository's own, so its HTML is trusted as written. */
export const renderGuide = (guide: Guide): string => markdown.parse(guide.markdown, { async: false })

/** A line of Markdown (a guide's summary) as HTML. */
export const renderInline = (text: string): string => markdown.parseInline(text, { async: false })
