import type { PageContext } from "../Context.js"
import { h } from "../Dom.js"

/** The payment's events and the webhook deliveries of those events. */
export const paymentTimeline = async (_context: PageContext, _id: string) => h("div", {})
