import { PublicUrls } from "@orchestrator/core"
import { testDatabases } from "@orchestrator/testing"
import { type Effect, ManagedRuntime } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { type Browser, chromium, type Page } from "playwright-core"
import { serverLayer } from "../../../http/test/support/TestServer.js"

/** Debian's Chromium; the suite never downloads a browser. */
export const CHROMIUM = "/usr/bin/chromium"

const SCREENSHOTS = fileURLToPath(new URL("../../../../artifacts/screenshots/dashboard/", import.meta.url))

/** The real service on the embedded database (PGlite), as `orchestrator start` composes it. */
const makeServer = (options: HarnessOptions = {}) => ManagedRuntime.make(serverLayer(testDatabases()[0]!.layer, options))

export interface HarnessOptions {
  /** Which organizations may vault raw card numbers, as `ORCHESTRATOR_VAULT_RAW_CARD_ORGANIZATIONS` says (none unless given). */
  readonly rawCardData?: (organizationId: string) => boolean
}

export type ServerRuntime = ReturnType<typeof makeServer>

export interface DashboardHarness {
  readonly baseUrl: string
  readonly browser: Browser
  /** Runs a server-side step (a fixture, a worker job) against the running service. */
  readonly run: <A, E>(effect: Effect.Effect<A, E, ManagedRuntime.ManagedRuntime.Context<ServerRuntime>>) => Promise<A>
  /** A fresh page at `/dashboard` on a phone-sized or laptop-sized screen. */
  readonly open: (options?: { readonly phone?: boolean }) => Promise<Page>
  readonly close: () => Promise<void>
}

export const startHarness = async (options: HarnessOptions = {}): Promise<DashboardHarness> => {
  const runtime = makeServer(options)
  const baseUrl = await (await runtime.runPromise(PublicUrls)).base
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true })
  fs.mkdirSync(SCREENSHOTS, { recursive: true })
  return {
    baseUrl,
    browser,
    run: (effect) => runtime.runPromise(effect),
    open: async (options = {}) => {
      const context = await browser.newContext(
        options.phone === true
          ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }
          : { viewport: { width: 1280, height: 900 } }
      )
      const page = await context.newPage()
      page.setDefaultTimeout(15_000)
      const problems: Array<string> = []
      pageProblems.set(page, problems)
      page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`))
      // A Content-Security-Policy violation is reported on the console as "Refused to …".
      page.on("console", (message) => {
        if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) problems.push(message.text())
      })
      await page.goto(`${baseUrl}/dashboard`)
      return page
    },
    close: async () => {
      await browser.close()
      await runtime.dispose()
    }
  }
}

const pageProblems = new WeakMap<Page, Array<string>>()

/** Script errors and policy violations the page reported (a refused request's status is not one). */
export const problemsOf = (page: Page): ReadonlyArray<string> => pageProblems.get(page) ?? []

/** Saves what the page shows now under `artifacts/screenshots/dashboard/`. */
export const screenshot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true })

/** Signs in through the form, as a person would, and waits for the mode banner. */
export const signIn = async (page: Page, key: string) => {
  await page.locator("#api-key").fill(key)
  await page.getByRole("button", { name: "Sign in" }).click()
  await page.locator("#mode-banner").waitFor()
}

/** The text of every cell of one column of a table, once the table is on screen. */
export const column = async (page: Page, tableId: string, label: string) => {
  await page.locator(`#${tableId}`).waitFor()
  return page.locator(`#${tableId} td[data-label="${label}"]`).allTextContents()
}
