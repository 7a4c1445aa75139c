import { expect, layer } from "@effect/vitest"
import { testDatabases } from "@orchestrator/testing"
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { createHmac } from "node:crypto"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { promisify } from "node:util"
import { merchant, serverLayer } from "./support/TestServer.js"

const root = resolve(import.meta.dirname, "../../..")
const exec = promisify(execFile)

/**
 * What a merchant's project does with the packed tarballs: install them into an empty directory with
 * npm (the only dependencies come from the registry) and use them from plain Node and from TypeScript.
 */
const installed = Effect.promise(async () => {
  const directory = mkdtempSync(join(tmpdir(), "merchant-project-"))
  const { stdout } = await exec("node", [join(root, "scripts/PackMerchantPackages.mjs"), join(directory, "packs")], { cwd: root })
  const tarballs = stdout.trim().split("\n")
  writeFileSync(join(directory, "package.json"), JSON.stringify({ name: "shop", private: true, type: "module" }))
  await exec("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", ...tarballs], { cwd: directory })
  return { directory, tarballs }
})

const node = (directory: string, source: string, env: Record<string, string> = {}) =>
  Effect.promise(async () => {
    writeFileSync(join(directory, "script.mjs"), source)
    const { stdout } = await exec("node", ["script.mjs"], { cwd: directory, env: { ...process.env, ...env } })
    return stdout.trim()
  })

const verifierScript = `
import { SIGNATURE_HEADER, verifyWebhook, WebhookVerificationError } from "@orchestrator/webhook-verify"
const { BODY, HEADER, SECRET } = process.env
const event = verifyWebhook(BODY, HEADER, SECRET)
let tampered
try { verifyWebhook(BODY.replace("pay_1", "pay_2"), HEADER, SECRET) } catch (error) { tampered = error instanceof WebhookVerificationError }
console.log(JSON.stringify({ header: SIGNATURE_HEADER, type: event.type, tampered }))
`

const clientScript = `
import { makeFetchClient } from "@orchestrator/client"
import { Effect } from "effect"
const program = Effect.gen(function*() {
  const client = yield* makeFetchClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY })
  const payment = yield* client.payments.create({
    headers: { "idempotency-key": "order-1042" },
    payload: { amount: 2500, currency: "EUR", payment_method: { type: "card", token: "tok_visa" } }
  })
  const declined = yield* client.payments.create({
    headers: { "idempotency-key": "order-1043" },
    payload: { amount: 2500, currency: "EUR", payment_method: { type: "card", token: "tok_chargeDeclined" } }
  }).pipe(Effect.flip)
  return { status: payment.status, amount: payment.amount, declined: declined._tag }
})
console.log(JSON.stringify(await Effect.runPromise(program)))
`

/** Type-checked against the packed declarations: an \`any\` anywhere would leave the expect-error unused. */
const typedConsumer = `
import { Currency, makeFetchClient } from "@orchestrator/client"
import { Effect } from "effect"
export const program = Effect.gen(function*() {
  const client = yield* makeFetchClient({ baseUrl: "http://localhost:3000", apiKey: "sk_test_x" })
  const payment = yield* client.payments.create({
    headers: { "idempotency-key": "order-1" },
    payload: { amount: 2500, currency: Currency.make("EUR"), payment_method: { type: "card", token: "tok_visa" } }
  })
  const status: "requires_action" | "processing" | "requires_capture" | "succeeded" | "failed" | "canceled" | "created" = payment.status
  // @ts-expect-error an amount is an integer in minor units, not a string
  yield* client.payments.create({ headers: { "idempotency-key": "order-2" }, payload: { amount: "25.00", currency: Currency.make("EUR"), payment_method: { type: "card", token: "tok_visa" } } })
  return status
})
`

const [pglite] = testDatabases()

layer(serverLayer(pglite!.layer), { excludeTestServices: true, timeout: "240 seconds" })("the merchant packages, installed from their tarballs", (it) => {
  it.effect("install into an empty project and work from plain Node and from TypeScript", () =>
    Effect.gen(function*() {
      const { directory, tarballs } = yield* installed
      expect(tarballs.map((path) => path.split("/").pop())).toEqual([
        expect.stringMatching(/^orchestrator-webhook-verify-\d+\.\d+\.\d+\.tgz$/),
        expect.stringMatching(/^orchestrator-client-\d+\.\d+\.\d+\.tgz$/)
      ])

      const secret = "whsec_TESTSECRET0123456789ABCDEFGHJK"
      const body = JSON.stringify({ object: "event", id: "evt_1", type: "payment.succeeded", data: { object: { id: "pay_1" } } })
      const t = Math.floor(Date.now() / 1000)
      const header = `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`
      const verified = JSON.parse(yield* node(directory, verifierScript, { BODY: body, HEADER: header, SECRET: secret }))
      expect(verified).toEqual({ header: "service-signature", type: "payment.succeeded", tampered: true })

      const account = yield* merchant()
      const used = JSON.parse(yield* node(directory, clientScript, { BASE_URL: account.baseUrl, API_KEY: account.secret }))
      expect(used).toEqual({ status: "succeeded", amount: 2500, declined: "PaymentRefused" })

      writeFileSync(join(directory, "consumer.ts"), typedConsumer)
      const tsc = join(root, "node_modules/typescript/bin/tsc")
      const options = ["--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--skipLibCheck"]
      const checked = yield* Effect.promise(() =>
        exec("node", [tsc, ...options, "--target", "es2022", "consumer.ts"], { cwd: directory })
          .then(() => "clean", (error: { stdout: string }) => error.stdout)
      )
      expect(checked).toBe("clean")
    }), { timeout: 240_000 })
})
