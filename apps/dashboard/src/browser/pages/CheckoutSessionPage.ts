import { ActionFailed } from "../Client.js"
import { type PageContext, sameMode } from "../Context.js"
import { h } from "../Dom.js"
import { money, when } from "../Format.js"
import { field } from "../Listing.js"
import { href } from "../Router.js"
import { badge } from "../Table.js"
import { withoutClientSecret } from "./CheckoutSessions.js"
import { paymentsSection } from "./PaymentsSection.js"

/** One checkout session: its state, its provider and the ones it moved away from, and every payment made for it. */
export const checkoutSessionPage = async (context: PageContext, id: string) => {
  const answer = await context.api((client) => client.checkoutSession.retrieve({ path: { id }, urlParams: {} }))
  // A secret key gets the full view; the public view (client secret) never reaches the dashboard.
  if (!("payment_ids" in answer)) throw new ActionFailed("The service answered with the customer's view of this session.", undefined, undefined)
  const session = withoutClientSecret(sameMode(context.mode, [answer])[0]!)
  const payments = sameMode(
    context.mode,
    await Promise.all(session.payment_ids.map((paymentId) => context.api((client) => client.payments.retrieve({ path: { id: paymentId } }))))
  )
  return h(
    "article",
    { "aria-labelledby": "session-title" },
    h("p", {}, h("a", { href: href("checkout") }, "← Checkout sessions")),
    h("h1", { id: "session-title" }, money(session.amount, session.currency), " ", h("span", { id: "session-status" }, badge(session.status))),
    h(
      "dl",
      { class: "facts" },
      field("Session", h("span", { class: "mono", id: "session-id" }, session.id)),
      field("Amount", money(session.amount, session.currency)),
      field("Provider", h("span", { id: "session-provider" }, `${session.ui.provider} (${session.ui.type})`)),
      field(
        "Excluded providers",
        h("span", { id: "session-excluded" }, session.excluded_providers.length === 0 ? "none" : session.excluded_providers.join(", "))
      ),
      field("Methods", (session.allowed_methods ?? session.ui.methods).join(", ")),
      field("Customer", session.customer_email ?? session.customer_id ?? "—"),
      field("Country", session.country ?? "—"),
      field("Locale", session.locale ?? "—"),
      field("Success URL", session.success_url),
      field("Cancel URL", session.cancel_url),
      field("Expires", when(session.expires_at)),
      field("Created", when(session.created_at))
    ),
    ...paymentsSection([...payments].reverse(), {
      caption: "Payments made for this session, newest first",
      empty: "No payment yet: the customer has not paid.",
      id: "session-payments-table"
    })
  )
}
