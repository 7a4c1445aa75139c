// The card form of the session's current provider, mounted through that provider type's adapter.

var unmountForm = function (dropin) {
  if (dropin.form) dropin.form.destroy()
  dropin.form = null
  dropin.formProvider = null
}

var mountForm = function (dropin) {
  var ui = dropin.session.ui
  if (dropin.form && dropin.formProvider === ui.provider) return
  unmountForm(dropin)
  var adapter = adapters[ui.type]
  if (!adapter) {
    show(dropin, say(dropin.locale, "error"), "error", true)
    dropin.onError(new Error("No browser adapter for provider type " + ui.type))
    return
  }
  dropin.form = adapter(dropin.view.formHost, {
    locale: dropin.locale,
    title: say(dropin.locale, "cardDetails"),
    onSubmit: function () { pay(dropin) },
    publishableKey: ui.publishable_key
  })
  dropin.formProvider = ui.provider
}

// The connection's display name, or none: its `provider` name is the merchant's own word, not for shoppers.
var shownName = function (ui) {
  return (ui && ui.display_name) || null
}
