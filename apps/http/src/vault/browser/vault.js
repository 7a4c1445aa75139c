// The vault's card form on a merchant's page: `<script src="https://<vault origin>/vault/v1/vault.js">`,
// then
//
//   var form = OrchestratorVault.mount({ container: "#card", publishableKey: "pk_test_…" })
//   form.tokenize().then(function (method) { /* method.id is the pm_…, method.card the masked card */ })
//
// The form lives in a frame of the vault's origin: this page never holds the number, only the token.
;(function() {
  "use strict"
  var VAULT = new URL(document.currentScript.src).origin

  var mount = function(options) {
    var container = typeof options.container === "string" ? document.querySelector(options.container) : options.container
    if (!container) throw new Error("OrchestratorVault.mount: no container")
    var credential = options.publishableKey ?
      "key=" + encodeURIComponent(options.publishableKey)
      : options.clientSecret
      ? "client_secret=" + encodeURIComponent(options.clientSecret)
      : null
    if (credential === null) throw new Error("OrchestratorVault.mount: a publishableKey or a clientSecret is needed")
    var frame = document.createElement("iframe")
    frame.src = VAULT + "/vault/card-form?origin=" + encodeURIComponent(window.location.origin) + "#" + credential
    frame.title = options.title || "Card details"
    frame.className = "orchestrator-vault-frame"
    frame.style.border = "0"
    frame.style.width = "100%"
    var pending = null
    var settle = function(how, value) {
      if (!pending) return
      var settled = pending
      pending = null
      settled[how](value)
    }
    var onMessage = function(event) {
      if (event.origin !== VAULT || event.source !== frame.contentWindow || !event.data) return
      var data = event.data
      if (data.source !== "orchestrator-card-form") return
      if (data.type === "ready" && data.height) frame.style.height = data.height + 4 + "px"
      if (data.type === "submit" && options.onSubmit) options.onSubmit()
      if (data.type === "token") settle("resolve", data.payment_method)
      if (data.type === "invalid") {
        settle("reject", Object.assign(new Error("The card was not accepted: " + data.code), { invalidCard: true, code: data.code, param: data.param }))
      }
      if (data.type === "error") settle("reject", Object.assign(new Error("The card could not be saved (" + data.status + ")"), { status: data.status }))
    }
    window.addEventListener("message", onMessage)
    container.appendChild(frame)
    return {
      tokenize: function() {
        return new Promise(function(resolve, reject) {
          settle("reject", new Error("superseded by another tokenize"))
          pending = { resolve: resolve, reject: reject }
          frame.contentWindow.postMessage({ type: "tokenize" }, VAULT)
        })
      },
      focus: function() {
        frame.contentWindow.postMessage({ type: "focus" }, VAULT)
      },
      destroy: function() {
        window.removeEventListener("message", onMessage)
        frame.remove()
      }
    }
  }

  window.OrchestratorVault = { mount: mount, origin: VAULT }
})()
