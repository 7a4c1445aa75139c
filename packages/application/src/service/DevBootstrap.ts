import { Organizations } from "@orchestrator/core"
import { Effect, Option, Redacted } from "effect"
import { announce } from "../logging/ServiceLogger.js"
import { readDevKey, saveDevKey } from "./LocalSecrets.js"

export const DEV_ORGANIZATION = "Development"
export const DEV_DISPLAY_NAME = "Development shop"

/**
 * The embedded default's development organization, with its two sandbox connections and a test key:
 * `ORCHESTRATOR_DEV_API_KEY` when set, else one generated on the first start and kept in the data
 * directory. Safe to run at every start.
 */
export const bootstrapDevelopment = (options: {
  readonly devApiKey: Option.Option<Redacted.Redacted>
  readonly dataDir: string
}) =>
  Effect.gen(function*() {
    const organizations = yield* Organizations
    const existing = organizations.findByName(DEV_ORGANIZATION).pipe(
      Effect.flatMap(Option.match({
        onNone: () => Effect.dieMessage(`the ${DEV_ORGANIZATION} organization is missing`),
        onSome: Effect.succeed
      }))
    )
    const organization = yield* Effect.flatMap(
      organizations.findByName(DEV_ORGANIZATION),
      Option.match({
        // Several processes starting at once on one database race to create it: the losers take the winner's.
        onNone: () =>
          organizations.create(DEV_ORGANIZATION).pipe(
            // What its checkout pages call the shop ("Pay Development shop") until the developer names theirs.
            Effect.tap((created) => organizations.updateSettings({ organizationId: created.id, livemode: false }, { display_name: DEV_DISPLAY_NAME })),
            Effect.catchTag("OrganizationNameTaken", () => existing),
            Effect.catchAllDefect(() => existing),
            Effect.orDie
          ),
        onSome: Effect.succeed
      })
    )
    // Its id is what an operator lists to let it send raw card numbers (ORCHESTRATOR_VAULT_RAW_CARD_ORGANIZATIONS).
    yield* announce(`Development organization: ${organization.id}`)
    if (Option.isSome(options.devApiKey)) {
      const key = yield* organizations.importKey(organization.id, Redacted.value(options.devApiKey.value)).pipe(Effect.orDie)
      yield* announce(`Development API key: from ORCHESTRATOR_DEV_API_KEY (${key.hint})`)
      return organization
    }
    const saved = yield* readDevKey(options.dataDir)
    const secret = saved ?? (yield* organizations.createKey(organization.id, false).pipe(Effect.orDie)).secret
    if (saved === undefined) yield* saveDevKey(options.dataDir, secret)
    else yield* organizations.importKey(organization.id, saved).pipe(Effect.orDie)
    yield* announce(`Development API key (test mode): ${secret}`)
    return organization
  })
