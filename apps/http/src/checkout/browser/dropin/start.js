// The script's one global, and the hosted page's auto-mount.

window.Orchestrator = {
  mount: mount,
  /** Adds the browser adapter of another provider type (its hosted fields), as `sandbox` is added. */
  registerAdapter: function (type, adapter) { adapters[type] = adapter }
}

// The hosted page: `<script src=".../dropin.js" data-mount="#checkout" data-session-id="cs_…">`. The
// client secret comes in the URL once; it is moved to this tab's session storage and taken off
// the address bar, and found there again when the bank sends the customer back.
var mountFromTag = function () {
  var sessionId = script.dataset.sessionId || ""
  var params = new URLSearchParams(window.location.search)
  var secret = params.get("client_secret")
  if (secret) {
    params.delete("client_secret")
    var rest = params.toString()
    history.replaceState(null, "", window.location.pathname + (rest ? "?" + rest : ""))
  } else {
    try { secret = sessionStorage.getItem(STORAGE + sessionId) } catch (_) { secret = null }
  }
  var start = function () {
    var container = document.querySelector(script.dataset.mount)
    if (!secret || secret.split("_secret_")[0] !== sessionId) {
      ensureStyle()
      container.textContent = ""
      container.appendChild(element("p", { class: "orchestrator-message orchestrator-error", role: "alert", text: say(localeOf(script.dataset.locale), "missing") }))
      return
    }
    mount({ clientSecret: secret, container: container, locale: script.dataset.locale, hosted: true })
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start)
  else start()
}

if (script.dataset.mount) mountFromTag()
