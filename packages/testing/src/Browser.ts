import { Effect } from "effect"
import { mkdirSync } from "node:fs"
import { type Browser, chromium, type Page } from "playwright-core"

export type { Frame, Page } from "playwright-core"

/** Debian's Chromium: the tests drive the browser the machine has, never one they download. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"

/** Where browser tests leave their screenshots (gitignored): `artifacts/screenshots/<suite>/`. */
const ARTIFACTS = new URL("../../../artifacts/screenshots/", import.meta.url)

/** A headless Chromium for the scope, closed with it. */
export const launchBrowser = Effect.acquireRelease(
  Effect.promise(() =>
    chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      // Containers run as root, where Chromium's own sandbox cannot start.
      args: process.getuid?.() === 0 ? ["--no-sandbox"] : []
    })
  ),
  (browser) => Effect.promise(() => browser.close())
)

/** A fresh page (its own cookies and storage) in `browser`, closed with the scope. */
export const newPage = (browser: Browser, options: { readonly locale?: string } = {}) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const context = await browser.newContext({ locale: options.locale ?? "en-US", viewport: { width: 900, height: 900 } })
      context.setDefaultTimeout(15_000)
      return context.newPage()
    }),
    (page) => Effect.promise(() => page.context().close())
  )

/** Saves a full-page screenshot as `artifacts/screenshots/<suite>/<name>.png`. */
export const screenshot = (page: Page, suite: string, name: string) =>
  Effect.promise(async () => {
    const directory = new URL(`${suite}/`, ARTIFACTS)
    mkdirSync(directory, { recursive: true })
    await page.screenshot({ path: new URL(`${name}.png`, directory).pathname, fullPage: true })
  })
