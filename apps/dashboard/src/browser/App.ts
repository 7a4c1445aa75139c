import { ActionFailed } from "./Client.js"
import { contextFor, type PageContext } from "./Context.js"
import { h, mount } from "./Dom.js"
import { errorBox } from "./Feedback.js"
import { checkoutSessionPage } from "./pages/CheckoutSessionPage.js"
import { checkoutSessionsPage } from "./pages/CheckoutSessions.js"
import { connectionsPage } from "./pages/Connections.js"
import { deliveryPage } from "./pages/Delivery.js"
import { disputePage } from "./pages/Dispute.js"
import { disputesPage } from "./pages/Disputes.js"
import { invoicePage } from "./pages/Invoice.js"
import { invoicesPage } from "./pages/Invoices.js"
import { overviewPage } from "./pages/Overview.js"
import { paymentPage } from "./pages/Payment.js"
import { paymentMethodPage } from "./pages/PaymentMethod.js"
import { paymentsPage } from "./pages/Payments.js"
import { routingPage } from "./pages/Routing.js"
import { signInPage } from "./pages/SignIn.js"
import { subscriptionPage } from "./pages/Subscription.js"
import { subscriptionsPage } from "./pages/Subscriptions.js"
import { webhooksPage } from "./pages/Webhooks.js"
import { currentLocation, href, type Location } from "./Router.js"
import { type Mode, Session } from "./Session.js"

type Page = (context: PageContext, location: Location) => Promise<Node>

const SECTIONS: ReadonlyArray<{ readonly path: string; readonly label: string }> = [
  { path: "overview", label: "Overview" },
  { path: "payments", label: "Payments" },
  { path: "disputes", label: "Disputes" },
  { path: "webhooks", label: "Webhooks" },
  { path: "routing", label: "Routing" },
  { path: "connections", label: "Connections" },
  { path: "subscriptions", label: "Subscriptions" },
  { path: "invoices", label: "Invoices" },
  { path: "checkout", label: "Checkout" }
]

const pageFor = (location: Location): Page => {
  const [section, id, sub] = location.path
  if (section === "payments" && id !== undefined) return (context) => paymentPage(context, id)
  if (section === "payments") return paymentsPage
  if (section === "payment_methods" && id !== undefined) return (context, location) => paymentMethodPage(context, id, location)
  if (section === "disputes" && id !== undefined) return (context) => disputePage(context, id)
  if (section === "disputes") return disputesPage
  if (section === "webhooks" && id === "deliveries" && sub !== undefined) return (context) => deliveryPage(context, sub)
  if (section === "webhooks") return webhooksPage
  if (section === "routing") return routingPage
  if (section === "connections") return connectionsPage
  if (section === "subscriptions" && id !== undefined) return (context) => subscriptionPage(context, id)
  if (section === "subscriptions") return subscriptionsPage
  if (section === "invoices" && id !== undefined) return (context) => invoicePage(context, id)
  if (section === "invoices") return invoicesPage
  if (section === "checkout" && id !== undefined) return (context) => checkoutSessionPage(context, id)
  if (section === "checkout") return checkoutSessionsPage
  return overviewPage
}

/**
 * The banner that says which data is on screen, on every page, in colour and in words; and the
 * switch to the other mode, which asks for that mode's key the first time.
 */
const modeBar = (mode: Mode, render: () => void) => {
  const other: Mode = mode === "live" ? "test" : "live"
  const toggle = h(
    "button",
    {
      type: "button",
      id: "mode-switch",
      role: "switch",
      "aria-checked": mode === "live" ? "true" : "false",
      "aria-label": "Live mode",
      onclick: () => {
        Session.switchTo(other)
        render()
      }
    },
    `Switch to ${other} mode`
  )
  return h(
    "div",
    { class: `mode-bar mode-${mode}`, id: "mode-banner", "data-mode": mode },
    h("strong", {}, mode === "live" ? "LIVE MODE — real money" : "TEST MODE — test data, no real money"),
    toggle
  )
}

const shell = (mode: Mode, active: string | undefined, render: () => void, content: Node) =>
  h(
    "div",
    { class: `shell mode-${mode}` },
    modeBar(mode, render),
    h(
      "header",
      {},
      h(
        "nav",
        { "aria-label": "Sections" },
        SECTIONS.map((section) => h("a", { href: href(section.path), "aria-current": section.path === active ? "page" : null }, section.label))
      ),
      h("button", {
        type: "button",
        class: "secondary",
        id: "sign-out",
        onclick: () => {
          Session.signOut()
          render()
        }
      }, "Sign out")
    ),
    h("main", { id: "content" }, content)
  )

/** Draws the page the URL names, for the mode on screen; the sign-in form when there is no key for it. */
export const startApp = (root: Element) => {
  let drawing = 0
  const render = () => {
    const draw = ++drawing
    const mode = Session.mode()
    const key = mode === undefined ? undefined : Session.key(mode)
    if (mode === undefined || key === undefined) {
      mount(root, signInPage(render, mode))
      return
    }
    const location = currentLocation()
    const active = location.path[0] ?? "overview"
    const content = h("div", { class: "loading", role: "status" }, "Loading…")
    mount(root, shell(mode, active, render, content))
    pageFor(location)(contextFor(mode, key), location).then(
      (page) => {
        if (draw === drawing) content.replaceWith(page)
      },
      (failure) => {
        if (draw !== drawing) return
        // A key revoked since sign-in: say so, and offer the sign-in form for this mode again.
        const refused = failure instanceof ActionFailed && failure.code?.startsWith("api_key") === true
        content.replaceWith(h(
          "div",
          {},
          errorBox(failure),
          refused
            ? h("button", {
              type: "button",
              id: "sign-in-again",
              onclick: () => {
                Session.forget(mode)
                render()
              }
            }, "Sign in again")
            : null
        ))
      }
    )
  }
  window.addEventListener("hashchange", render)
  render()
  return render
}
