// Browser adapters: one per provider type, each mounting that provider's own card fields, and the
// vault's card form for providers that take vaulted cards. `Orchestrator.registerAdapter` adds others.

var adapters = {}

/** The sandbox's hosted fields: its card form in an iframe, which answers with a token. */
adapters.sandbox = function (host, context) {
  var frame = element("iframe", {
    src: API + "/sandbox/card-form?locale=" + encodeURIComponent(context.locale) +
      "&parent_origin=" + encodeURIComponent(window.location.origin),
    title: context.title,
    class: "orchestrator-card-frame"
  })
  var pending = null
  var onMessage = function (event) {
    if (event.origin !== API || event.source !== frame.contentWindow || !event.data) return
    var data = event.data
    if (data.source !== "sandbox-card-form") return
    if (data.type === "ready" && data.height) frame.style.height = data.height + 4 + "px"
    if (data.type === "submit") context.onSubmit()
    if (data.type === "token" && pending) {
      pending.resolve({ type: "card", token: data.token, brand: data.brand, last4: data.last4 })
      pending = null
    }
    if (data.type === "invalid" && pending) {
      pending.reject(Object.assign(new Error(data.message), { invalidCard: true }))
      pending = null
    }
  }
  window.addEventListener("message", onMessage)
  host.appendChild(frame)
  return {
    tokenize: function () {
      return new Promise(function (resolve, reject) {
        pending = { resolve: resolve, reject: reject }
        frame.contentWindow.postMessage({ type: "tokenize" }, API)
      })
    },
    focus: function () { frame.contentWindow.postMessage({ type: "focus" }, API) },
    destroy: function () {
      window.removeEventListener("message", onMessage)
      frame.remove()
    }
  }
}

/**
 * The service's own card form (the vault's, `ui.card_form_url`) in its frame on the vault's origin:
 * the card is vaulted under the session's client secret, and the form hands back only its `pm_…`
 * and the masked card. The number never reaches this page.
 */
var vaultAdapter = function (host, context) {
  var origin = new URL(context.cardFormUrl).origin
  var frame = element("iframe", {
    // The client secret goes in the fragment, which no server and no Referer sees.
    src: context.cardFormUrl + "?origin=" + encodeURIComponent(window.location.origin) +
      "#client_secret=" + encodeURIComponent(context.clientSecret),
    title: context.title,
    class: "orchestrator-card-frame"
  })
  var pending = null
  var settle = function (how, value) {
    if (!pending) return
    var settled = pending
    pending = null
    settled[how](value)
  }
  var onMessage = function (event) {
    if (event.origin !== origin || event.source !== frame.contentWindow || !event.data) return
    var data = event.data
    if (data.source !== "orchestrator-card-form") return
    if (data.type === "ready" && data.height) frame.style.height = data.height + 4 + "px"
    if (data.type === "submit") context.onSubmit()
    if (data.type === "token") {
      var card = data.payment_method.card || {}
      settle("resolve", { type: "card", token: data.payment_method.id, brand: card.brand, last4: card.last4 })
    }
    if (data.type === "invalid") settle("reject", Object.assign(new Error("The card was not accepted: " + data.code), { invalidCard: true }))
    if (data.type === "error") settle("reject", new Error("The card could not be saved (" + data.status + ")"))
  }
  window.addEventListener("message", onMessage)
  host.appendChild(frame)
  return {
    tokenize: function () {
      return new Promise(function (resolve, reject) {
        settle("reject", new Error("superseded by another tokenize"))
        pending = { resolve: resolve, reject: reject }
        frame.contentWindow.postMessage({ type: "tokenize" }, origin)
      })
    },
    focus: function () { frame.contentWindow.postMessage({ type: "focus" }, origin) },
    destroy: function () {
      window.removeEventListener("message", onMessage)
      frame.remove()
    }
  }
}
