// The package's entry for programs outside a test run (the bench, the fault suite): the index
// imports vitest, which throws when no test runs.
export { alive, descendants, freePort } from "./Processes.js"
