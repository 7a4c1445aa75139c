import { describe, expect, it } from "vitest"
import { dashboardQueries, repositoryFile } from "./support/GrafanaDashboard.js"

/** The names the service defines (the core's metrics, and the pool's use read from PostgreSQL). */
const definedNames = () =>
  new Set(
    ["packages/core/src/features/observability/ServiceMetrics.ts", "packages/sql/src/observability/PoolUse.ts"]
      .flatMap((file) => [...repositoryFile(file).matchAll(/"(orchestrator_[a-z_]+)"/g)].map((match) => match[1]!))
  )

describe("the Grafana dashboard", () => {
  it("queries only metrics the service defines (a histogram through its _bucket, _count or _sum)", () => {
    const defined = definedNames()
    const used = dashboardQueries().flatMap((expr) => [...expr.matchAll(/\b(orchestrator_[a-z_]+)/g)].map((match) => match[1]!))
    expect(used.length).toBeGreaterThan(15)
    const unknown = used.filter((name) => !defined.has(name) && !defined.has(name.replace(/_(bucket|count|sum)$/, "")))
    expect(unknown).toEqual([])
    // Each metric the service defines has a panel.
    const shown = new Set(used.map((name) => name.replace(/_(bucket|count|sum)$/, "")))
    expect([...defined].filter((name) => !shown.has(name))).toEqual([])
  })
})
