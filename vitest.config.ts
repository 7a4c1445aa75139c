import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"

const project = (name: string, root: string) => ({
  extends: true as const,
  test: { name, root, include: ["test/**/*.test.ts"] }
})

export default defineConfig({
  test: {
    // Effect's TestClock drives time; vitest's fake timers stay out of the way.
    fakeTimers: { toFake: [] },
    // Most suites wait on PostgreSQL, Chromium or a child process more than they compute, so two run at
    // once even on two cores (vitest's default there is one at a time).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      project("core", "packages/core"),
      project("connectors", "packages/connectors"),
      project("egress", "packages/egress"),
      project("vault", "packages/vault"),
      project("webhook-sender", "packages/webhook-sender"),
      project("rate-limit-redis", "packages/rate-limit-redis"),
      project("webhook-verify", "packages/webhook-verify"),
      project("application", "packages/application"),
      project("sql", "packages/sql"),
      project("api", "packages/api"),
      project("http", "apps/http"),
      project("worker", "apps/worker"),
      project("cli", "apps/cli"),
      project("dashboard", "apps/dashboard"),
      project("embed", "examples/embed")
    ]
  }
})
