import { makeMemoryRateLimiter, type Rate, type RateDecision, RateLimiter } from "@orchestrator/core"
import { Clock, Duration, Effect, Layer } from "effect"
import { Redis } from "ioredis"

/**
 * The cell rate algorithm of `CellRate.ts` (the same arithmetic, in Lua), run inside Redis so every process counts against one
 * budget per key: read the key's theoretical arrival time, decide, store it, in one atomic step on
 * Redis's own clock, in whole microseconds. ARGV: count, period in microseconds, 1 to peek (decide,
 * store nothing). Returns {allowed (1/0), retry after in ms}.
 */
const ADMIT = `
local time = redis.call('TIME')
local now = time[1] * 1000000 + time[2]
local count = tonumber(ARGV[1])
local interval = math.floor(tonumber(ARGV[2]) / count + 0.5)
local burst = interval * count
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local next_tat = tat + interval
local allow_at = next_tat - burst
if now < allow_at then
  return {0, math.ceil((allow_at - now) / 1000)}
end
if ARGV[3] ~= '1' then
  redis.call('SET', KEYS[1], string.format('%d', next_tat), 'PX', math.ceil((next_tat - now) / 1000) + 1000)
end
return {1, 0}
`

/** How long a request waits for Redis before counting in process instead. */
const REDIS_TIMEOUT = Duration.millis(100)

/** How often a Redis outage is logged, at most. */
const OUTAGE_LOG_EVERY_MS = 30_000

/**
 * Request rates shared by every process through Redis (`REDIS_URL`). When Redis is slow or down,
 * each process counts for itself (the in-process limiter) and says so in its log: an outage of
 * Redis loosens the limits for a while, it never refuses a payment.
 */
export const RedisRateLimiterLive = (
  url: string,
  /** Before every bucket's key in Redis; tests set their own so runs sharing a Redis never meet. */
  options: { readonly prefix?: string } = {}
) =>
  Layer.scoped(
    RateLimiter,
    Effect.gen(function*() {
      const redis = yield* Effect.acquireRelease(
        Effect.sync(() => {
          const client = new Redis(url, {
            // Fail at once while disconnected rather than queue: the local count takes over.
            enableOfflineQueue: false,
            maxRetriesPerRequest: 0,
            connectTimeout: 2_000,
            retryStrategy: (times) => Math.min(times * 200, 2_000),
            lazyConnect: true
          })
          // Connection errors are reported by the requests that meet them; this keeps them off stderr.
          client.on("error", () => undefined)
          return client
        }),
        (client) => Effect.sync(() => client.disconnect())
      )
      // Start counting in Redis from the first request when it is there; when it is not, start
      // anyway (the client keeps reconnecting) and count in process meanwhile.
      yield* Effect.tryPromise(() => redis.connect()).pipe(
        Effect.timeout("2 seconds"),
        Effect.catchAll(() => Effect.logWarning("Redis is unavailable for rate limits at start; counting in this process"))
      )
      // Sent once, then called by its hash.
      redis.defineCommand("admitRateWithin", { numberOfKeys: 1, lua: ADMIT })
      const run = (key: string, rate: Rate, peek: boolean) =>
        (redis as unknown as {
          admitRateWithin: (key: string, count: number, periodMicros: number, peek: string) => Promise<[number, number]>
        }).admitRateWithin(key, rate.count, rate.periodMs * 1000, peek ? "1" : "0")
      const local = makeMemoryRateLimiter()
      let lastOutageLog = 0

      const fallBack = (bucket: string, rate: Rate, peek: boolean, reason: string) =>
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          if (now - lastOutageLog > OUTAGE_LOG_EVERY_MS) {
            lastOutageLog = now
            yield* Effect.logWarning(`Redis is unavailable for rate limits (${reason}); counting in this process`)
          }
          return yield* local.admit(bucket, rate, { peek })
        })

      const prefix = options.prefix ?? "ratelimit:"
      const admit = (bucket: string, rate: Rate, options: { readonly peek: boolean }): Effect.Effect<RateDecision> =>
        Effect.tryPromise(() => run(`${prefix}${bucket}`, rate, options.peek)).pipe(
          Effect.timeoutFail({ duration: REDIS_TIMEOUT, onTimeout: () => new Error("timed out") }),
          Effect.map(([allowed, retryAfterMs]): RateDecision => ({ allowed: allowed === 1, retryAfterMs })),
          Effect.catchAll((error) => fallBack(bucket, rate, options.peek, error instanceof Error ? error.message : String(error)))
        )
      return { take: (bucket, perSecond) => admit(bucket, { count: perSecond, periodMs: 1000 }, { peek: false }), admit }
    })
  )
