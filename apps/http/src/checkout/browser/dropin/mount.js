// `Orchestrator.mount`: the drop-in in the merchant's container, for the session its client secret
// opens.

var mount = function (options) {
  var container = typeof options.container === "string" ? document.querySelector(options.container) : options.container
  if (!container) throw new Error("Orchestrator.mount: no container")
  var clientSecret = String(options.clientSecret || "")
  var locale = localeOf(options.locale)
  var dropin = {
    options: options,
    clientSecret: clientSecret,
    sessionId: clientSecret.split("_secret_")[0],
    locale: locale,
    onComplete: options.onComplete || function () {},
    onError: options.onError || function () {},
    view: null,
    // The session as last read, its provider's mounted form, and whether a request is under way.
    session: null,
    form: null,
    formProvider: null,
    // The vaulted card (`pm_…`) the session was last confirmed with, paid again after a reroute.
    vaultedCard: null,
    busy: false
  }
  ensureStyle()
  try { sessionStorage.setItem(STORAGE + dropin.sessionId, clientSecret) } catch (_) { /* storage may be off */ }
  dropin.view = buildView(locale)
  container.textContent = ""
  container.appendChild(dropin.view.root)

  dropin.view.payButton.addEventListener("click", function () { pay(dropin) })
  dropin.view.cancelButton.addEventListener("click", function () { cancel(dropin) })
  showActions(dropin, false)
  show(dropin, say(dropin.locale, "loading"), "info", false)
  load(dropin)
  return { unmount: function () { unmountForm(dropin); container.textContent = "" } }
}
