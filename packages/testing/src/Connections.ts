import { freshConnection, type ProviderConnection } from "@orchestrator/core"
import { DateTime } from "effect"

/** A provider connection for tests: an active test-mode sandbox unless `overrides` say otherwise. */
export const testConnection = (overrides: Partial<ConstructorParameters<typeof ProviderConnection>[0]> = {}) =>
  freshConnection({
    id: "pcn_test",
    name: "sandbox_a",
    type: "sandbox",
    livemode: false,
    created_at: DateTime.unsafeMake(0),
    updated_at: DateTime.unsafeMake(0),
    ...overrides
  })
