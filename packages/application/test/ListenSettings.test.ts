import { ConfigProvider, Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { SettingsConfig } from "../src/settings/Settings.js"

const hostWith = (env: Record<string, string>) =>
  Effect.runSync(Effect.either(Effect.withConfigProvider(SettingsConfig, ConfigProvider.fromMap(new Map(Object.entries(env))))))
    .pipe(Either.map((settings) => settings.host))

const POSTGRES = { DATABASE_URL: "postgres://postgres@127.0.0.1:5432/shop" }

describe("where the API listens", () => {
  it("on 127.0.0.1 for the embedded start, on every interface with DATABASE_URL, unless HOST says otherwise", () => {
    expect(hostWith({})).toEqual(Either.right("127.0.0.1"))
    expect(hostWith(POSTGRES)).toEqual(Either.right(undefined))
    expect(hostWith({ HOST: "0.0.0.0" })).toEqual(Either.right("0.0.0.0"))
    expect(hostWith({ ...POSTGRES, HOST: "10.0.0.5" })).toEqual(Either.right("10.0.0.5"))
    expect(hostWith({ HOST: "::" })).toEqual(Either.right("::"))
  })

  it("refuses a HOST that is no address or host name, with a one-line reason", () => {
    const refused = hostWith({ HOST: "http://0.0.0.0:3000/" })
    expect(Either.isLeft(refused)).toBe(true)
  })
})
