import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { organizationName } from "../src/domain/tenancy/OrganizationName.js"
import { Organizations } from "../src/features/tenancy/Organizations.js"
import { makeTestServices } from "./support/TestServices.js"

const reasonOf = (name: string) => Either.match(organizationName(name), { onLeft: (error) => error.reason, onRight: () => null })

describe("organization names", () => {
  it("trimmed; 1 to 100 characters as the eye counts them; no control character or broken UTF-16", () => {
    expect(organizationName("  Acme  ")).toEqual(Either.right("Acme"))
    expect(reasonOf("\n\t ")).toBe("the name is empty")
    expect(reasonOf("🙂".repeat(100))).toBeNull()
    expect(reasonOf("🙂".repeat(101))).toBe("the name has 101 characters, at most 100 are allowed")
    for (const bad of ["a\u0000b", "a\u0007b", "a\u007fb", "a\u009bb", "a\nb", "a\ud800b", "a\udc00"]) {
      expect([JSON.stringify(bad), reasonOf(bad)]).toEqual([JSON.stringify(bad), "the name contains a control character"])
    }
  })

  it.effect("creating one checks the name and refuses a taken one with a typed error", () =>
    Effect.gen(function*() {
      const organizations = yield* Organizations
      const created = yield* organizations.create(" Globex ")
      expect(created.name).toBe("Globex")
      expect(yield* Effect.flip(organizations.create("Globex"))).toMatchObject({ _tag: "OrganizationNameTaken", name: "Globex" })
      expect((yield* Effect.flip(organizations.create("")))._tag).toBe("OrganizationNameInvalid")
    }).pipe(Effect.provide(makeTestServices().layer)))
})
