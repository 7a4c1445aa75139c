/**
 * What a failure from the database means to the service, so that no shell needs to know PostgreSQL's
 * error codes or the drivers' messages.
 */

/** PostgreSQL's codes for "not now": connection failures (class 08), shutdown and startup (57P01-57P03). */
const UNAVAILABLE_CODES = /^(08...|57P0[123])$/
/** How `pg` and the sockets under it say the server went away, when no code came with it. */
const UNAVAILABLE_MESSAGES = /ECONNREFUSED|ECONNRESET|Connection terminated|connection is closed|timeout exceeded when trying to connect/i

/** The driver wraps the server's error (`SqlError` around `pg`'s), so a few causes deep are looked at. */
const MAX_CAUSE_DEPTH = 6

/**
 * Whether a failure is the database being away (a restart, a failover) rather than a bug: whatever
 * was asked did nothing durable, so it is safe to retry.
 */
export const isDatabaseUnavailable = (failure: unknown): boolean => {
  let current: unknown = failure
  for (let depth = 0; current !== undefined && current !== null && depth < MAX_CAUSE_DEPTH; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown }
    if (typeof code === "string" && UNAVAILABLE_CODES.test(code)) return true
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.test(message)) return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}
