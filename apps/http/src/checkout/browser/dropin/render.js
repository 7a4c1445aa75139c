// The session as the shopper sees it: its summary, then what its status asks for (the form, the
// bank's page, a wait, a reroute, the way back to the shop).

var renderSummary = function (dropin) {
  var session = dropin.session
  var summary = dropin.view.summary
  var t = function (key, values) { return say(dropin.locale, key, values) }
  // Who the shopper pays heads the page (and the hosted page's title); the way back names them too.
  var heading = session.ui.merchant_name ? t("payTo", { merchant: session.ui.merchant_name }) : t("title")
  dropin.view.heading.textContent = heading
  if (dropin.options.hosted) document.title = heading
  dropin.view.cancelButton.textContent = sayShop(dropin, "cancel")
  summary.textContent = ""
  var rows = [
    [t("total"), formatAmount(dropin.locale, session.amount, session.currency)],
    [t("method"), (session.ui.methods || ["card"]).map(function (m) { return m === "card" ? t("card") : methodName(m) }).join(", ")]
  ]
  rows.forEach(function (row) {
    summary.appendChild(element("dt", { text: row[0] }))
    summary.appendChild(element("dd", { text: row[1] }))
  })
  // A provider is named only by the display name its merchant gave it; without one, none is.
  var provider = shownName(session.ui)
  if (provider) summary.appendChild(element("dd", { class: "orchestrator-provider", text: t("provider", { provider: provider }) }))
  dropin.view.payButton.textContent = t("pay", { amount: formatAmount(dropin.locale, session.amount, session.currency) })
}

var render = function (dropin, next, context) {
  // The merchant's `locale` first, then the session's, then the browser's.
  if (dropin.session === null && !dropin.options.locale && next.locale && TEXT[next.locale]) relocalize(dropin, next.locale)
  dropin.session = next
  context = context || {}
  renderSummary(dropin)
  renderWallets(dropin)
  dropin.view.links.textContent = ""
  switch (next.status) {
    case "open":
      showActions(dropin, true)
      if (takesCards(next)) mountForm(dropin)
      else {
        unmountForm(dropin)
        dropin.view.payButton.hidden = true
      }
      show(dropin, context.message || "", context.kind, Boolean(context.message))
      return
    case "processing":
      return renderProcessing(dropin, context)
    case "payment_failed":
      return reroute(dropin)
    case "complete":
      return renderComplete(dropin)
    case "cancelled":
      return renderClosed(dropin, "cancelled", "info")
    case "expired":
      return renderClosed(dropin, "expired", "error")
  }
}

// Just confirmed and the bank asks the shopper: off to the bank. Otherwise wait for the payment to
// settle, and once the waiting is over and it still needs the shopper, offer the way to the bank.
var renderProcessing = function (dropin, context) {
  var payment = dropin.session.payment
  showActions(dropin, false)
  var action = payment && payment.next_action
  if (payment && payment.status === "requires_action" && action && context.confirmed) {
    show(dropin, say(dropin.locale, "authenticating"), "info", false)
    window.location.assign(action.url)
    return
  }
  if (context.patient !== false) {
    show(dropin, say(dropin.locale, "waiting"), "info", false)
    return waitForBank(dropin, 10)
  }
  if (action) {
    show(dropin, say(dropin.locale, "notAuthenticated"), "warning", true)
    dropin.view.links.appendChild(element("a", { href: action.url, class: "orchestrator-continue", text: say(dropin.locale, "continueAuthentication") }))
  }
}

var renderComplete = function (dropin) {
  var session = dropin.session
  unmountForm(dropin)
  showActions(dropin, false)
  show(dropin, sayShop(dropin, "complete"), "success", true)
  try { sessionStorage.removeItem(STORAGE + dropin.sessionId) } catch (_) { /* nothing to forget */ }
  dropin.onComplete(session)
  window.location.assign(session.success_url.split("{CHECKOUT_SESSION_ID}").join(dropin.sessionId))
}

// Cancelled or expired: nothing more to do here but go back to the shop.
var renderClosed = function (dropin, key, kind) {
  unmountForm(dropin)
  showActions(dropin, false)
  show(dropin, key === "expired" ? sayShop(dropin, key) : say(dropin.locale, key), kind, true)
  backLink(dropin)
}
