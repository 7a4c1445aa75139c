// One button per wallet or local method the session allows (`ui.wallets`): each confirms the session
// with that method, and the PSP's approval page is then reached as a 3D Secure challenge is.

var WALLET_TEXT = { paypal: "walletPaypal", ideal: "walletIdeal", bancontact: "walletBancontact" }

// A method's own name, as its brand writes it (the summary's list), and its button's words.
var METHOD_NAMES = { paypal: "PayPal", ideal: "iDEAL", bancontact: "Bancontact" }
var methodName = function (type) { return METHOD_NAMES[type] || type }

var walletLabel = function (dropin, type) {
  return WALLET_TEXT[type] ? say(dropin.locale, WALLET_TEXT[type]) : methodName(type)
}

var renderWallets = function (dropin) {
  var host = dropin.view.walletHost
  host.textContent = ""
  var session = dropin.session
  var wallets = (session && session.status === "open" && session.ui.wallets) || []
  wallets.forEach(function (wallet) {
    var button = element("button", {
      type: "button",
      class: "orchestrator-wallet orchestrator-wallet-" + wallet.type,
      "data-method": wallet.type,
      text: walletLabel(dropin, wallet.type)
    })
    button.disabled = dropin.busy
    button.addEventListener("click", function () { payWith(dropin, { type: wallet.type }) })
    host.appendChild(button)
  })
}

var payWith = function (dropin, method) {
  if (dropin.busy || !dropin.session || dropin.session.status !== "open") return
  setBusy(dropin, true)
  show(dropin, say(dropin.locale, "paying"), "info", false)
  confirmWith(dropin, method).catch(function (error) { fail(dropin, error) })
}

// Whether the session takes cards: only then is a card form mounted (a wallet-only session has none).
var takesCards = function (session) {
  return (session.ui.methods || ["card"]).indexOf("card") >= 0
}
