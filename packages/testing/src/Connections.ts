import { ProviderConnection } from "@orchestrator/core/providers/ProviderConnection"
import { DateTime } from "effect"

/** A provider connection for tests: an active test-mode sandbox unless `overrides` say otherwise. */
export const testConnection = (overrides: Partial<ConstructorParameters<typeof ProviderConnection>[0]> = {}) =>
  new ProviderConnection({
    object: "provider_connection",
    id: "pcn_test",
    name: "sandbox_a",
    type: "sandbox",
    status: "active",
    last_error: null,
    supported_currencies: null,
    supported_methods: null,
    settings: {},
    base_url: null,
    consecutive_failures: 0,
    circuit_retry_at: null,
    livemode: false,
    created_at: DateTime.unsafeMake(0),
    updated_at: DateTime.unsafeMake(0),
    ...overrides
  })
