// The package's entry for programs outside a test run (the bench, the fault suite, pnpm docs:examples): the index
// imports vitest, which throws when no test runs.
export { alive, descendants, freePort } from "./Processes.js"
export { durableTestDatabases, testDatabases } from "./TestDatabases.js"
