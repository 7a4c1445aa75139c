import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

/** The drop-in's sentences (`browser/dropin/text.js`), read as the script declares them. */
const { REASONS, TEXT } = new Function(
  "navigator",
  `${readFileSync(new URL("../src/checkout/browser/dropin/text.js", import.meta.url), "utf8")}; return { TEXT, REASONS }`
)({ language: "en" }) as { TEXT: Record<string, Record<string, string>>; REASONS: Record<string, string> }

const locales = Object.keys(TEXT)

describe("what the drop-in says, in each of its languages", () => {
  it("has every sentence in English, French and German", () => {
    expect(locales.sort()).toEqual(["de", "en", "fr"])
    for (const locale of locales) expect(Object.keys(TEXT[locale]!).sort(), locale).toEqual(Object.keys(TEXT.en!).sort())
  })

  it("names the merchant where a sentence has a version for it, and the reason of a failure where it says one happened", () => {
    for (const locale of locales) {
      for (const [key, text] of Object.entries(TEXT[locale]!)) {
        if (key.endsWith("To")) expect(text, `${locale}.${key}`).toContain("{merchant}")
        else expect(text, `${locale}.${key}`).not.toContain("{merchant}")
      }
      for (const key of ["retry", "noOther", "noOtherTo"]) expect(TEXT[locale]![key], `${locale}.${key}`).toContain("{reason}")
    }
    for (const key of new Set(Object.values(REASONS))) expect(TEXT.en![key], key).toBeDefined()
  })

  it("names no provider but in the one line its merchant's display name fills, and never asks for 'another provider'", () => {
    for (const locale of locales) {
      for (const [key, text] of Object.entries(TEXT[locale]!)) {
        if (key === "provider") continue
        expect(text, `${locale}.${key}`).not.toMatch(/\{provider\}|\{failed\}|provider|prestataire|Zahlungsanbieter/i)
      }
    }
  })
})
