import { ConfigProvider, Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { SettingsConfig } from "../src/settings/Settings.js"

const privateAddressesWith = (env: Record<string, string>) =>
  Effect.runSync(Effect.either(Effect.withConfigProvider(SettingsConfig, ConfigProvider.fromMap(new Map(Object.entries(env))))))
    .pipe(Either.map((settings) => settings.privateAddresses))

const POSTGRES = { DATABASE_URL: "postgres://postgres@127.0.0.1:5432/shop" }

describe("the egress setting", () => {
  it("denies private addresses to test mode on PostgreSQL and allows them for the embedded start, unless the operator says", () => {
    expect(privateAddressesWith(POSTGRES)).toEqual(Either.right("deny"))
    expect(privateAddressesWith({})).toEqual(Either.right("allow"))
    expect(privateAddressesWith({ ...POSTGRES, ORCHESTRATOR_EGRESS_PRIVATE_ADDRESSES: "allow" })).toEqual(Either.right("allow"))
    expect(privateAddressesWith({ ORCHESTRATOR_EGRESS_PRIVATE_ADDRESSES: "deny" })).toEqual(Either.right("deny"))
    expect(Either.isLeft(privateAddressesWith({ ORCHESTRATOR_EGRESS_PRIVATE_ADDRESSES: "yes" }))).toBe(true)
  })

  it("still reads the deprecated ORCHESTRATOR_WEBHOOKS_PUBLIC_ONLY, which the new name overrides", () => {
    expect(privateAddressesWith({ ORCHESTRATOR_WEBHOOKS_PUBLIC_ONLY: "true" })).toEqual(Either.right("deny"))
    expect(privateAddressesWith({ ...POSTGRES, ORCHESTRATOR_WEBHOOKS_PUBLIC_ONLY: "false" })).toEqual(Either.right("allow"))
    expect(privateAddressesWith({ ORCHESTRATOR_WEBHOOKS_PUBLIC_ONLY: "true", ORCHESTRATOR_EGRESS_PRIVATE_ADDRESSES: "allow" })).toEqual(Either.right("allow"))
  })
})
