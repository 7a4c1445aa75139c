import { Duration, Effect, Layer, Option } from "effect"
import { Redis } from "ioredis"
import { SharedCvcs } from "./SharedCvcs.js"

/** How long the vault waits for Redis before going on without it (a payment without its CVC, a code kept in process). */
const REDIS_TIMEOUT = Duration.millis(500)

/**
 * Security codes shared through Redis (`REDIS_URL`), so a card tokenized by one process is authorized
 * with its code by another. Each key is `<prefix>vault:cvc:<card id>`: no organization, no card fact.
 * Redis down: the vault goes on without it (said in the log), never failing a card or a payment.
 */
export const SharedCvcsRedis = (
  url: string,
  /** Before every key; tests set their own so runs sharing a Redis never meet. */
  options: { readonly prefix?: string } = {}
) =>
  Layer.scoped(
    SharedCvcs,
    Effect.gen(function*() {
      const redis = yield* Effect.acquireRelease(
        Effect.sync(() => {
          const client = new Redis(url, {
            enableOfflineQueue: false,
            maxRetriesPerRequest: 0,
            connectTimeout: 2_000,
            retryStrategy: (times) => Math.min(times * 200, 2_000),
            lazyConnect: true
          })
          // Connection errors are reported by the calls that meet them; this keeps them off stderr.
          client.on("error", () => undefined)
          return client
        }),
        (client) => Effect.sync(() => client.disconnect())
      )
      yield* Effect.tryPromise(() => redis.connect()).pipe(
        Effect.timeout("2 seconds"),
        Effect.catchAll(() => Effect.logWarning("Redis is unavailable for the vault's security codes at start; holding them in this process"))
      )
      const keyOf = (cardId: string) => `${options.prefix ?? ""}vault:cvc:${cardId}`
      const attempt = <A>(what: string, run: () => Promise<A>) =>
        Effect.tryPromise(run).pipe(
          Effect.timeoutFail({ duration: REDIS_TIMEOUT, onTimeout: () => new Error("no answer in time") }),
          Effect.tapError((error) => Effect.logWarning(`Redis could not ${what} a security code: ${error instanceof Error ? error.message : String(error)}`)),
          Effect.option
        )
      return {
        put: (cardId, sealed, ttlMillis) => Effect.map(attempt("hold", () => redis.set(keyOf(cardId), sealed, "PX", ttlMillis)), Option.isSome),
        take: (cardId) => Effect.map(attempt("take", () => redis.getdel(keyOf(cardId))), Option.flatMap(Option.fromNullable)),
        destroy: (cardId) => Effect.asVoid(attempt("destroy", () => redis.del(keyOf(cardId))))
      }
    })
  )
