import { Context, Effect, Either, Layer, Option, ParseResult, Schema } from "effect"
import { echoed } from "../../domain/EchoedText.js"
import { EgressSettings, egressUrlProblem, PRIVATE_ADDRESSES_DENIED, pspAccess } from "../../domain/egress/EgressPolicy.js"
import { randomBase32 } from "../../domain/Ids.js"
import { type ResourceLimitExceeded, roomForOneMore } from "../../domain/limits/ResourceLimits.js"
import {
  type CreateProviderConnection,
  freshConnection,
  ProviderConnection,
  type ProviderConnectionView,
  type UpdateProviderConnection
} from "../../domain/providers/ProviderConnection.js"
import { ConnectionInvalid, ConnectionNameTaken, DefaultProviderInUse, ProviderConnectionNotFound } from "../../domain/providers/ProviderConnectionErrors.js"
import type { ResourceReads } from "../../domain/ResourceReads.js"
import { defaultProviderOf } from "../../domain/tenancy/Organization.js"
import type { Tenant } from "../../domain/Tenant.js"
import { now } from "../../domain/Timestamp.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { OrganizationsRepository } from "../../ports/OrganizationsRepository.js"
import type { ConnectorDefinition } from "../../ports/PaymentConnector.js"
import { ProviderConnectionsRepository } from "../../ports/ProviderConnectionsRepository.js"
import { Transactions } from "../../ports/Transactions.js"
import { ConnectionSecrets } from "./ConnectionSecrets.js"
import { Connectors } from "./Connectors.js"
import { ProviderConnectionViews } from "./ProviderConnectionViews.js"

/** The two sandbox connections every new organization starts with in test mode. */
export const STARTER_CONNECTIONS = ["sandbox_a", "sandbox_b"] as const

/**
 * What is wrong with `settings`, and where: `settings.latency_ms` when the problem is one setting
 * (as `credentials.secret_key` names a credential), else `settings`.
 */
const settingsProblem = (definition: ConnectorDefinition, settings: unknown) =>
  Either.match(Schema.decodeUnknownEither(definition.settings, { onExcessProperty: "error" })(settings), {
    onLeft: (error) => {
      const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
      const named = issue !== undefined && issue.path.length > 0 && issue.path.every((key) => typeof key === "string")
      return Option.some(
        named
          ? { param: `settings.${issue.path.join(".")}`, reason: issue.message }
          : { param: "settings", reason: ParseResult.TreeFormatter.formatErrorSync(error).split("\n").slice(-1)[0]!.trim() }
      )
    },
    onRight: () => Option.none()
  })

/** PSP accounts: created, changed and deleted by the merchant, with their secrets sealed. */
export class ProviderConnections extends Context.Tag("core/ProviderConnections")<
  ProviderConnections,
  ResourceReads<ProviderConnectionView, ProviderConnectionNotFound> & {
    readonly create: (tenant: Tenant, input: CreateProviderConnection) => Effect.Effect<
      ProviderConnectionView,
      ConnectionInvalid | ConnectionNameTaken | ResourceLimitExceeded
    >
    readonly update: (tenant: Tenant, id: string, input: UpdateProviderConnection) => Effect.Effect<
      ProviderConnectionView,
      ProviderConnectionNotFound | ConnectionInvalid | DefaultProviderInUse
    >
    /** Deletes a connection that is not the default; payments made on it keep their provider. */
    readonly remove: (tenant: Tenant, id: string) => Effect.Effect<void, ProviderConnectionNotFound | DefaultProviderInUse>
    /** A new organization's test-mode sandboxes, in the caller's transaction. */
    readonly createStarters: (organizationId: string) => Effect.Effect<void>
  }
>() {
  static readonly layer = Layer.effect(
    ProviderConnections,
    Effect.gen(function*() {
      const repository = yield* ProviderConnectionsRepository
      const organizations = yield* OrganizationsRepository
      const connectors = yield* Connectors
      const secrets = yield* ConnectionSecrets
      const transactions = yield* Transactions
      const ids = yield* IdGenerator
      const { view } = yield* ProviderConnectionViews
      const { privateAddresses } = yield* EgressSettings

      const found = (id: string) =>
        Option.match({
          onNone: () => Effect.fail(new ProviderConnectionNotFound({ id })),
          onSome: (connection: ProviderConnection) => Effect.succeed(connection)
        })
      const load = (tenant: Tenant, id: string) => Effect.flatMap(repository.find(tenant, id), found(id))

      /**
       * For a change: the organization first (its default provider and the connections' names and
       * statuses change one at a time), then the connection, so no health update interleaves.
       */
      const lockForChange = (tenant: Tenant, id: string) =>
        Effect.zipRight(organizations.lock(tenant.organizationId), Effect.flatMap(repository.lock(tenant, id), found(id)))

      const definitionOf = (type: string) =>
        Effect.mapError(connectors.definition(type), () =>
          new ConnectionInvalid({
            param: "type",
            reason: `unknown type '${echoed(type)}'; this service knows ${connectors.types.join(", ")}`
          }))

      const checkBaseUrl = baseUrlCheck(privateAddresses)

      const { insert, seal } = sealingWrites({ repository, secrets })

      const newConnection = newConnectionWith(ids)

      const isDefault = (tenant: Tenant, name: string) =>
        Effect.map(
          organizations.find(tenant.organizationId),
          (organization) => Option.exists(organization, (found) => defaultProviderOf(found, tenant.livemode) === name)
        )

      return {
        create: Effect.fn("ProviderConnections.create")(function*(tenant: Tenant, input: CreateProviderConnection) {
          const definition = yield* definitionOf(input.type)
          if (tenant.livemode && definition.testModeOnly === true) {
            return yield* new ConnectionInvalid({
              param: "type",
              reason: `'${input.type}' moves no money: it is for test mode only`
            })
          }
          yield* checkSettings(definition, input.settings ?? {})
          yield* checkCredentials(definition, input.credentials ?? {}, tenant.livemode)
          yield* checkBaseUrl(definition, tenant.livemode, input.base_url ?? null)
          const connection = yield* newConnection(tenant, fieldsOf(input))
          return yield* transactions.run(Effect.gen(function*() {
            // Two creations with one name wait for each other here, so the second is told the name is taken.
            yield* organizations.lock(tenant.organizationId)
            if (Option.isSome(yield* repository.findByNameEver(tenant, input.name))) {
              return yield* new ConnectionNameTaken({ name: input.name })
            }
            yield* roomForOneMore("provider_connections", (yield* repository.list(tenant)).length)
            yield* insert(tenant.organizationId, connection, input)
            return view(connection)
          }))
        }),
        retrieve: (tenant, id) => Effect.map(load(tenant, id), view),
        list: (tenant, page) => Effect.map(repository.page(tenant, page), (found) => ({ ...found, data: found.data.map(view) })),
        update: Effect.fn("ProviderConnections.update")(function*(tenant: Tenant, id: string, input: UpdateProviderConnection) {
          return yield* transactions.run(Effect.gen(function*() {
            const connection = yield* lockForChange(tenant, id)
            const definition = yield* definitionOf(connection.type)
            if (input.settings !== undefined) yield* checkSettings(definition, input.settings)
            if (input.credentials !== undefined) yield* checkCredentials(definition, input.credentials, connection.livemode)
            if (input.base_url !== undefined) yield* checkBaseUrl(definition, connection.livemode, input.base_url)
            if (input.status === "disabled" && (yield* isDefault(tenant, connection.name))) {
              return yield* new DefaultProviderInUse({ name: connection.name })
            }
            const updated = new ProviderConnection({
              ...connection,
              display_name: input.display_name === undefined ? connection.display_name : input.display_name,
              settings: input.settings ?? connection.settings,
              base_url: input.base_url === undefined ? connection.base_url : input.base_url,
              supported_currencies: input.supported_currencies === undefined
                ? connection.supported_currencies
                : input.supported_currencies,
              supported_methods: input.supported_methods === undefined ? connection.supported_methods : input.supported_methods,
              status: input.status === undefined
                ? connection.status
                : input.status === "active" && connection.status === "error"
                ? "error"
                : input.status,
              updated_at: yield* now
            })
            yield* repository.update(tenant.organizationId, updated)
            yield* seal(id, input)
            return view(Option.getOrElse(yield* repository.find(tenant, id), () => updated))
          }))
        }),
        remove: (tenant, id) =>
          transactions.run(Effect.gen(function*() {
            const connection = yield* lockForChange(tenant, id)
            if (yield* isDefault(tenant, connection.name)) return yield* new DefaultProviderInUse({ name: connection.name })
            yield* repository.markDeleted(tenant, id, yield* now)
          })),
        createStarters: (organizationId) =>
          Effect.forEach(STARTER_CONNECTIONS, (name) =>
            Effect.flatMap(
              newConnection({ organizationId, livemode: false }, { name, type: "sandbox" }),
              (connection) => insert(organizationId, connection, {})
            ), { discard: true })
      }
    })
  ).pipe(Layer.provide(Layer.mergeAll(IdGenerator.layer, ConnectionSecrets.layer, Connectors.layer, ProviderConnectionViews.layer)))
}

const checkSettings = (definition: ConnectorDefinition, settings: unknown) =>
  Option.match(settingsProblem(definition, settings), {
    onNone: () => Effect.void,
    onSome: ({ param, reason }) => Effect.fail(new ConnectionInvalid({ param, reason }))
  })

const checkCredentials = (definition: ConnectorDefinition, credentials: Readonly<Record<string, string>>, livemode: boolean) => {
  const missing = definition.credentialKeys.find(({ key, required }) => required && !(key in credentials))
  if (missing !== undefined) {
    return Effect.fail(new ConnectionInvalid({ param: `credentials.${missing.key}`, reason: "this type needs it" }))
  }
  const unknown = Object.keys(credentials).find((key) => !definition.credentialKeys.some((known) => known.key === key))
  if (unknown !== undefined) {
    return Effect.fail(new ConnectionInvalid({ param: `credentials.${unknown}`, reason: "this type does not take it" }))
  }
  // The PSP's own rule for its keys and the connection's mode (a live key never serves a test connection).
  const problem = definition.credentialsProblem?.(credentials, livemode)
  return problem === undefined
    ? Effect.void
    : Effect.fail(new ConnectionInvalid({ param: `credentials.${problem.key}`, reason: problem.reason }))
}

/** The egress policy of the connection's calls, applied when the URL is saved (and again at each call). */
const baseUrlCheck =
  (privateAddresses: Context.Tag.Service<typeof EgressSettings>["privateAddresses"]) =>
  (definition: ConnectorDefinition, livemode: boolean, baseUrl: string | null) => {
    const problemUnder = (setting: typeof privateAddresses) =>
      baseUrl === null ? undefined : egressUrlProblem(baseUrl, pspAccess({ livemode, liveHosts: definition.liveHosts, privateAddresses: setting }))
    const problem = problemUnder(privateAddresses)
    // A test-mode refusal the operator's setting alone causes names that setting.
    const bySetting = !livemode && privateAddresses === "deny" && problemUnder("allow") === undefined
    return problem === undefined ? Effect.void : Effect.fail(
      new ConnectionInvalid({ param: "base_url", reason: `${problem}${bySetting ? `: ${PRIVATE_ADDRESSES_DENIED}` : ""}` })
    )
  }

/** What the merchant asked for, with the defaults of what they left out. */
const fieldsOf = (input: CreateProviderConnection) => ({
  name: input.name,
  display_name: input.display_name ?? null,
  type: input.type,
  settings: input.settings ?? {},
  base_url: input.base_url ?? null,
  supported_currencies: input.supported_currencies ?? null,
  supported_methods: input.supported_methods ?? null
})

/** A new active connection of this mode, `fields` over the defaults. */
const newConnectionWith =
  (ids: Context.Tag.Service<typeof IdGenerator>) => (tenant: Tenant, fields: Pick<ProviderConnection, "name" | "type"> & Partial<ProviderConnection>) =>
    Effect.gen(function*() {
      const createdAt = yield* now
      return freshConnection({
        id: yield* ids.make("pcn"),
        livemode: tenant.livemode,
        created_at: createdAt,
        updated_at: createdAt,
        ...fields
      })
    })

/** Writing a connection's secrets sealed, and inserting a connection with them. */
const sealingWrites = ({ repository, secrets }: {
  readonly repository: Context.Tag.Service<typeof ProviderConnectionsRepository>
  readonly secrets: Context.Tag.Service<typeof ConnectionSecrets>
}) => {
  const seal = (connectionId: string, input: { readonly credentials?: unknown; readonly webhook_secret?: string | undefined }) =>
    Effect.gen(function*() {
      if (input.credentials !== undefined) {
        yield* repository.saveSealedSecret(
          connectionId,
          "credentials",
          yield* secrets.seal(connectionId, "credentials", JSON.stringify(input.credentials))
        )
      }
      if (input.webhook_secret !== undefined) {
        yield* repository.saveSealedSecret(
          connectionId,
          "webhook_secret",
          yield* secrets.seal(connectionId, "webhook_secret", input.webhook_secret)
        )
      }
    })

  /**
   * Inserts a connection. The sandbox, which needs no account anywhere, gets a webhook secret of
   * its own when none is given: it signs the webhooks it sends back with it.
   */
  const insert = (organizationId: string, connection: ProviderConnection, input: {
    readonly credentials?: unknown
    readonly webhook_secret?: string | undefined
  }) =>
    Effect.gen(function*() {
      yield* repository.insert(organizationId, connection)
      const webhookSecret = input.webhook_secret ??
        (connection.type === "sandbox" ? `whsec_${randomBase32(32)}` : undefined)
      yield* seal(connection.id, { ...input, webhook_secret: webhookSecret })
    })
  return { insert, seal }
}
