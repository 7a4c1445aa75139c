/**
 * PostgreSQL connections that prepare each parameterised statement once: the first run of a text on
 * a connection sends it as a named statement (Parse), and every later run only binds and executes
 * it. Without this the driver sends every statement unnamed, and the server parses, analyses and
 * plans it again each time: for a payment's writes (common table expressions with the key, the
 * attempt and the events) that was about 0.3 ms of the server's CPU per statement, and 0.1 ms of
 * ours. pgbench, the bench's reference, prepares its statements too (`--protocol=prepared`).
 */
import { createHash } from "node:crypto"
import pg from "pg"

/**
 * Statements one connection prepares at most; texts past it run unnamed. Statements whose text
 * varies with their input (a batch of N rows) would otherwise grow a session without bound.
 */
export const MAX_PREPARED_PER_CONNECTION = 500

/** A name PostgreSQL accepts (at most 63 bytes) that only this text gets. */
const nameOf = (text: string) => `q_${createHash("sha1").update(text).digest("base64url")}`

type Callback = (error: (Error & { readonly code?: string }) | null, result: unknown) => void

/**
 * `pg.Client` that prepares statements, for `pg.Pool`'s `Client` option. The server keeps a prepared
 * statement's result type: after a migration changes it (a column added to a table read with
 * `select *`), PostgreSQL refuses the next run ("cached plan must not change result type", SQLSTATE
 * 0A000). The text then gets a new name, so it is prepared again; outside a transaction the
 * statement is rerun at once, inside one the transaction's error stands (it is aborted already).
 */
export class PreparingClient extends pg.Client {
  private readonly names = new Map<string, string>()
  private renamed = 0

  // The base class's many overloads cannot be restated: one untyped entry forwards them all.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config !== "string" || !Array.isArray(values) || values.length === 0 || typeof callback !== "function") {
      return super.query(config, values, callback)
    }
    const text = config
    let name = this.names.get(text)
    if (name === undefined) {
      if (this.names.size >= MAX_PREPARED_PER_CONNECTION) return super.query(text, values, callback)
      name = nameOf(text)
      this.names.set(text, name)
    }
    const answer = callback as Callback
    return super.query({ name, text, values }, (error: (Error & { readonly code?: string }) | null, result: unknown) => {
      if (error === null || error.code !== "0A000") return answer(error, result)
      const renamed = `${nameOf(text)}_${++this.renamed}`
      this.names.set(text, renamed)
      if (this.getTransactionStatus() !== "I") return answer(error, result)
      super.query({ name: renamed, text, values }, answer)
    })
  }
}
