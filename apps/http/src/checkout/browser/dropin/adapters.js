// Browser adapters: one per provider type, each mounting that provider's own card fields.
// `Orchestrator.registerAdapter` adds others.

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
