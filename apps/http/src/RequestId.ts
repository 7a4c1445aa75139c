import { FiberRef } from "effect"

/** The `req_…` id of the request being served; every response and error body carries it. */
export const CurrentRequestId = FiberRef.unsafeMake("req_unknown")
