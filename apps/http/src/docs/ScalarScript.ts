import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"

/**
 * The API reference's renderer (Scalar, the version `@effect/platform` embeds), served from this
 * origin as a file so the docs page can run under `script-src 'self'`: `HttpApiScalar` would inline
 * it, which a strict policy refuses. The built service finds it beside its bundle (`pnpm build`
 * copies it there); the sources read it from the platform package, whose exports do not name it.
 */
export const loadScalarScript = (): string => {
  try {
    return readFileSync(new URL("./docs/scalar.js", import.meta.url), "utf8")
  } catch {
    const require = createRequire(import.meta.url)
    const scalarModule = require.resolve("@effect/platform/HttpApiScalar")
    return (require(path.join(path.dirname(scalarModule), "internal/httpApiScalar.js")) as { javascript: string }).javascript
  }
}
