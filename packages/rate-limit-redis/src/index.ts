/** The front door of @orchestrator/rate-limit-redis: everything another package may use. */
export { RedisRateLimiterLive } from "./RedisRateLimiter.js"
