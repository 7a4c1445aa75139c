/**
 * The HTTP shell: `HttpMain` (every route on Node's HTTP server, over the application provided below
 * it), `HttpShell` (as the service runs it, from its settings), and what the CLI's build bundles.
 */
export { loadScalarScript } from "./docs/ScalarScript.js"
export { HttpMain, HttpShell } from "./main.js"
