// The card form of the session's current provider, mounted through that provider type's adapter.

var unmountForm = function (dropin) {
  if (dropin.form) dropin.form.destroy()
  dropin.form = null
  dropin.formProvider = null
}

// The vault's form stays mounted across a reroute between providers that both take vaulted cards:
// the card in it is already vaulted, and the next provider is paid with the same `pm_…`.
var mountForm = function (dropin) {
  var ui = dropin.session.ui
  var formKey = ui.card_form_url ? "vault" : ui.provider
  if (dropin.form && dropin.formProvider === formKey) return
  unmountForm(dropin)
  var adapter = ui.card_form_url ? vaultAdapter : adapters[ui.type]
  if (!adapter) {
    show(dropin, say(dropin.locale, "error"), "error", true)
    dropin.onError(new Error("No browser adapter for provider type " + ui.type))
    return
  }
  dropin.form = adapter(dropin.view.formHost, {
    locale: dropin.locale,
    title: say(dropin.locale, "cardDetails"),
    onSubmit: function () { pay(dropin) },
    publishableKey: ui.publishable_key,
    cardFormUrl: ui.card_form_url,
    clientSecret: dropin.clientSecret
  })
  dropin.formProvider = formKey
}

// The connection's display name, or none: its `provider` name is the merchant's own word, not for shoppers.
var shownName = function (ui) {
  return (ui && ui.display_name) || null
}
