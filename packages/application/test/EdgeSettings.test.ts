import { ConfigProvider, Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { describeConfigError, SettingsConfig } from "../src/settings/Settings.js"

const settingsWith = (env: Record<string, string>) =>
  Effect.runSync(Effect.either(Effect.withConfigProvider(SettingsConfig, ConfigProvider.fromMap(new Map(Object.entries(env))))))

describe("the edge's settings", () => {
  it("ORCHESTRATOR_TRUSTED_PROXIES is a list of addresses and CIDRs; the old hop count is refused with a reason naming the new form", () => {
    expect(Either.map(settingsWith({}), (settings) => settings.trustedProxies.entries)).toEqual(Either.right([]))
    expect(Either.map(settingsWith({ ORCHESTRATOR_TRUSTED_PROXIES: "10.0.0.0/8,fd00::/8" }), (settings) => settings.trustedProxies.entries))
      .toEqual(Either.right(["10.0.0.0/8", "fd00::/8"]))
    const refused = settingsWith({ ORCHESTRATOR_TRUSTED_PROXIES: "1" })
    const reason = Either.match(refused, { onLeft: describeConfigError, onRight: () => "accepted" })
    expect(reason).not.toContain("\n")
    expect(reason).toMatch(
      /^ORCHESTRATOR_TRUSTED_PROXIES no longer takes a count of proxies \('1'\).*e\.g\. ORCHESTRATOR_TRUSTED_PROXIES=10\.0\.0\.0\/8,fd00::\/8/
    )
  })

  it("a client's trace context is ignored unless ORCHESTRATOR_TRUST_INCOMING_TRACES is true", () => {
    expect(Either.map(settingsWith({}), (settings) => settings.trustIncomingTraces)).toEqual(Either.right(false))
    expect(Either.map(settingsWith({ ORCHESTRATOR_TRUST_INCOMING_TRACES: "true" }), (settings) => settings.trustIncomingTraces)).toEqual(Either.right(true))
    expect(Either.isLeft(settingsWith({ ORCHESTRATOR_TRUST_INCOMING_TRACES: "maybe" }))).toBe(true)
  })
})
