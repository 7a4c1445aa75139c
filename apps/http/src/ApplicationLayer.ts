import type { SqlClient } from "@effect/sql"
import { ConnectorsLive } from "@orchestrator/connectors/ConnectorsLive"
import type { PublicBaseUrl } from "@orchestrator/core/payments/AttemptPolicy"
import { ServicesLayer } from "@orchestrator/core/Services"
import type { KeyMaterial } from "@orchestrator/core/tenancy/KeyMaterial"
import { StorageSql } from "@orchestrator/sql/StorageSql"
import { Layer } from "effect"

/**
 * The composition root below the shells: the core's services over SQL storage and the connectors.
 * The HTTP server, the worker and the command-line tool all start from this.
 */
export const applicationLayer = <E1, E2, E3>(options: {
  readonly database: Layer.Layer<SqlClient.SqlClient, E1>
  readonly keys: Layer.Layer<KeyMaterial, E2>
  readonly publicUrl: Layer.Layer<PublicBaseUrl, E3>
}) =>
  ServicesLayer.pipe(
    Layer.provideMerge(ConnectorsLive),
    Layer.provideMerge(StorageSql),
    Layer.provideMerge(Layer.mergeAll(options.database, options.keys, options.publicUrl))
  )
