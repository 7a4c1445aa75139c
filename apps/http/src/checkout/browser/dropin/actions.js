// What the shopper does: pay with the form's token (or a wallet, `wallets.js`), cancel, and (after a decline) try
// again, on another provider the shopper is not bothered with.

var pay = function (dropin) {
  if (dropin.busy || !dropin.form || !dropin.session || dropin.session.status !== "open") return
  setBusy(dropin, true)
  show(dropin, say(dropin.locale, "paying"), "info", false)
  dropin.form.tokenize().then(function (method) {
    return confirmWith(dropin, method)
  }, function (error) {
    setBusy(dropin, false)
    if (error && error.invalidCard) show(dropin, say(dropin.locale, "invalidCard"), "error", false)
    else fail(dropin, error)
  }).catch(function (error) { fail(dropin, error) })
}

// The session confirmed with a card's token or a wallet (`{ type: "paypal" }`). A card vaulted by the
// vault's form is kept, to pay the next provider with after a reroute.
var confirmWith = function (dropin, method) {
  dropin.vaultedCard = method.type === "card" && dropin.session.ui.card_form_url ? method : null
  return api(dropin, "POST", sessionPath(dropin, "confirm"), { payment_method: method }).then(function (answer) {
    setBusy(dropin, false)
    if (answer.status === 200) return render(dropin, answer.json, { confirmed: true })
    if (answer.status === 409) return load(dropin)
    fail(dropin, new Error("confirm " + answer.status))
  })
}

var cancel = function (dropin) {
  if (dropin.busy || !dropin.session) return
  setBusy(dropin, true)
  api(dropin, "POST", sessionPath(dropin, "cancel")).then(function (answer) {
    setBusy(dropin, false)
    if (answer.status === 200) {
      try { sessionStorage.removeItem(STORAGE + dropin.sessionId) } catch (_) { /* nothing to forget */ }
      window.location.assign(dropin.session.cancel_url)
      return
    }
    return load(dropin)
  }).catch(function (error) { fail(dropin, error) })
}

// After a decline: the session moves to another provider and its form is mounted, and the shopper is
// asked to try again (which provider is theirs to know only by a name the merchant gave it); with
// none left, the shopper is told to pay another way.
var reroute = function (dropin) {
  var failed = dropin.session.payment
  setBusy(dropin, true)
  return api(dropin, "POST", sessionPath(dropin, "reroute"), failed ? { exclude_provider: failed.provider } : {})
    .then(function (answer) {
      setBusy(dropin, false)
      if (answer.status === 200) {
        var kept = keptCard(dropin, failed, answer.json)
        if (kept) {
          // The next provider takes the same vaulted card: the shopper types nothing again.
          render(dropin, answer.json, { message: say(dropin.locale, "paying"), kind: "info" })
          setBusy(dropin, true)
          return confirmWith(dropin, kept)
        }
        var text = say(dropin.locale, "retry", { reason: reasonOf(dropin, failed) })
        render(dropin, answer.json, { message: text, kind: "warning" })
        if (dropin.form) dropin.form.focus()
        return
      }
      if (answer.status === 422) {
        unmountForm(dropin)
        showActions(dropin, false)
        dropin.view.cancelButton.hidden = false
        show(dropin, sayShop(dropin, "noOther", { reason: reasonOf(dropin, failed) }), "error", true)
        return
      }
      return load(dropin)
    })
    .catch(function (error) { fail(dropin, error) })
}

// Why the payment failed, as a sentence in the shopper's language, read from its failure code.
var reasonOf = function (dropin, payment) {
  var code = payment && payment.failure ? payment.failure.code : ""
  return say(dropin.locale, REASONS[code] || "reasonOther")
}

// Refusals that are the card's own details (or a card the vault cannot open): another provider would
// refuse them too, so the shopper corrects the card instead.
var CARD_TO_FIX = ["incorrect_cvc", "incorrect_number", "invalid_expiry", "expired_card", "payment_method_unusable"]

// The vaulted card the failed payment was made with, when the rerouted session's provider takes it too.
var keptCard = function (dropin, failed, next) {
  var code = failed && failed.failure ? failed.failure.code : ""
  if (!dropin.vaultedCard || next.status !== "open" || !next.ui.card_form_url || CARD_TO_FIX.indexOf(code) !== -1) return null
  return dropin.vaultedCard
}
