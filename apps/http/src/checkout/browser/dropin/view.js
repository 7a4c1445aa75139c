// The drop-in's own elements, and what it shows in them: a message, busy buttons, a way back.
// `dropin` is one mounted drop-in's state, built by `mount`.

var buildView = function (locale) {
  var heading = element("h2", { class: "orchestrator-title", text: say(locale, "title") })
  var summary = element("dl", { class: "orchestrator-summary" })
  var message = element("div", { class: "orchestrator-message", role: "alert", "aria-live": "assertive", tabindex: "-1" })
  var walletHost = element("div", { class: "orchestrator-wallets" })
  var formHost = element("div", { class: "orchestrator-form" })
  var payButton = element("button", { type: "button", class: "orchestrator-pay" })
  var cancelButton = element("button", { type: "button", class: "orchestrator-cancel", text: say(locale, "cancel") })
  var links = element("div", { class: "orchestrator-links" })
  var root = element("section", { class: "orchestrator-dropin", "aria-labelledby": "orchestrator-title", lang: locale }, [
    heading, summary, message, walletHost, formHost, element("div", { class: "orchestrator-actions" }, [payButton, cancelButton]), links
  ])
  heading.id = "orchestrator-title"
  return { root: root, heading: heading, summary: summary, message: message, walletHost: walletHost, formHost: formHost, payButton: payButton, cancelButton: cancelButton, links: links }
}

var relocalize = function (dropin, code) {
  dropin.locale = code
  dropin.view.root.setAttribute("lang", code)
  dropin.view.heading.textContent = say(code, "title")
  dropin.view.cancelButton.textContent = say(code, "cancel")
}

var show = function (dropin, text, kind, focus) {
  var message = dropin.view.message
  message.textContent = text || ""
  message.className = "orchestrator-message" + (kind ? " orchestrator-" + kind : "")
  if (focus && text) message.focus()
}

var setBusy = function (dropin, value) {
  dropin.busy = value
  dropin.view.payButton.disabled = value
  dropin.view.cancelButton.disabled = value
  Array.prototype.forEach.call(dropin.view.walletHost.querySelectorAll("button"), function (button) { button.disabled = value })
  dropin.view.root.setAttribute("aria-busy", value ? "true" : "false")
}

var showActions = function (dropin, visible) {
  dropin.view.payButton.hidden = !visible
  dropin.view.cancelButton.hidden = !visible
}

var backLink = function (dropin) {
  var links = dropin.view.links
  links.textContent = ""
  if (dropin.session) links.appendChild(element("a", { href: dropin.session.cancel_url, class: "orchestrator-back", text: sayShop(dropin, "back") }))
}

var fail = function (dropin, error) {
  setBusy(dropin, false)
  show(dropin, say(dropin.locale, "error"), "error", true)
  dropin.onError(error)
}
