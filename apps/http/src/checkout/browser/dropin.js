// The checkout drop-in: one self-contained script, served by the service at /v1/checkout/dropin.js.
//
//   Orchestrator.mount({ clientSecret, container, locale, onComplete, onError })
//
// It reads the session's public view with its client secret, mounts the card form of the session's
// current provider (each provider type has a browser adapter), confirms with the token that form
// makes, follows a 3D Secure redirect and picks up again on the way back, and after a rejection
// reroutes the session to another provider and mounts that provider's form. Card numbers only ever
// live inside the provider's own frame.
;(function () {
  "use strict"

  var script = document.currentScript
  var API = new URL(script.src).origin
  var STORAGE = "orchestrator.checkout."

  var TEXT = {
    en: {
      title: "Checkout",
      total: "Total",
      method: "Payment method",
      card: "Card",
      provider: "Processed by {provider}",
      someProvider: "the payment provider",
      pay: "Pay {amount}",
      paying: "Processing your payment…",
      cancel: "Cancel and return to the shop",
      back: "Return to the shop",
      loading: "Loading…",
      complete: "Payment received. Redirecting you back to the shop…",
      authenticating: "Redirecting you to your bank to confirm the payment…",
      waiting: "Waiting for your bank's answer…",
      stillWaiting: "Your payment is still being confirmed. This page updates by itself once it is; you will not be charged twice.",
      notAuthenticated: "The payment still needs your bank's confirmation.",
      continueAuthentication: "Continue with your bank",
      declined: "Your payment was declined: {reason}",
      rerouted: "Your payment was declined by {failed}: {reason} You can try again with another payment provider, {provider}. Please enter your card details again.",
      noOther: "Your payment was declined: {reason} No other payment provider can take this payment.",
      invalidCard: "Please check your card details.",
      expired: "This checkout session has expired. Please return to the shop and start again.",
      cancelled: "This payment was cancelled.",
      missing: "This payment link is incomplete or no longer valid.",
      error: "Something went wrong. Please try again."
    },
    fr: {
      title: "Paiement",
      total: "Total",
      method: "Moyen de paiement",
      card: "Carte",
      provider: "Traité par {provider}",
      someProvider: "le prestataire de paiement",
      pay: "Payer {amount}",
      paying: "Paiement en cours…",
      cancel: "Annuler et revenir à la boutique",
      back: "Revenir à la boutique",
      loading: "Chargement…",
      complete: "Paiement reçu. Retour à la boutique…",
      authenticating: "Redirection vers votre banque pour confirmer le paiement…",
      waiting: "En attente de la réponse de votre banque…",
      stillWaiting: "Votre paiement est toujours en cours de confirmation. Cette page se mettra à jour d'elle-même ; vous ne serez pas débité deux fois.",
      notAuthenticated: "Le paiement attend encore la confirmation de votre banque.",
      continueAuthentication: "Continuer avec votre banque",
      declined: "Votre paiement a été refusé : {reason}",
      rerouted: "Votre paiement a été refusé par {failed} : {reason} Vous pouvez réessayer avec un autre prestataire de paiement, {provider}. Veuillez saisir à nouveau votre carte.",
      noOther: "Votre paiement a été refusé : {reason} Aucun autre prestataire de paiement ne peut accepter ce paiement.",
      invalidCard: "Veuillez vérifier les données de votre carte.",
      expired: "Cette session de paiement a expiré. Veuillez revenir à la boutique et recommencer.",
      cancelled: "Ce paiement a été annulé.",
      missing: "Ce lien de paiement est incomplet ou n'est plus valable.",
      error: "Une erreur s'est produite. Veuillez réessayer."
    },
    de: {
      title: "Bezahlung",
      total: "Gesamt",
      method: "Zahlungsart",
      card: "Karte",
      provider: "Abgewickelt über {provider}",
      someProvider: "den Zahlungsanbieter",
      pay: "{amount} bezahlen",
      paying: "Ihre Zahlung wird verarbeitet…",
      cancel: "Abbrechen und zum Shop zurückkehren",
      back: "Zum Shop zurückkehren",
      loading: "Wird geladen…",
      complete: "Zahlung erhalten. Sie werden zum Shop zurückgeleitet…",
      authenticating: "Sie werden zur Bestätigung der Zahlung zu Ihrer Bank weitergeleitet…",
      waiting: "Warten auf die Antwort Ihrer Bank…",
      stillWaiting: "Ihre Zahlung wird noch bestätigt. Diese Seite aktualisiert sich von selbst; Sie werden nicht doppelt belastet.",
      notAuthenticated: "Die Zahlung wartet noch auf die Bestätigung Ihrer Bank.",
      continueAuthentication: "Weiter zu Ihrer Bank",
      declined: "Ihre Zahlung wurde abgelehnt: {reason}",
      rerouted: "Ihre Zahlung wurde von {failed} abgelehnt: {reason} Sie können es mit einem anderen Zahlungsanbieter erneut versuchen: {provider}. Bitte geben Sie Ihre Karte erneut ein.",
      noOther: "Ihre Zahlung wurde abgelehnt: {reason} Kein anderer Zahlungsanbieter kann diese Zahlung annehmen.",
      invalidCard: "Bitte prüfen Sie Ihre Kartendaten.",
      expired: "Diese Bezahlsitzung ist abgelaufen. Bitte kehren Sie zum Shop zurück und beginnen Sie erneut.",
      cancelled: "Diese Zahlung wurde abgebrochen.",
      missing: "Dieser Zahlungslink ist unvollständig oder nicht mehr gültig.",
      error: "Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut."
    }
  }

  var localeOf = function (wanted) {
    var candidates = [wanted, navigator.language]
    for (var i = 0; i < candidates.length; i++) {
      var code = String(candidates[i] || "").slice(0, 2).toLowerCase()
      if (TEXT[code]) return code
    }
    return "en"
  }

  var say = function (locale, key, values) {
    return TEXT[locale][key].replace(/\{(\w+)\}/g, function (_, name) { return values && values[name] !== undefined ? values[name] : "" })
  }

  /** Minor units to a localized amount: the currency's own exponent, as Intl knows it. */
  var formatAmount = function (locale, amount, currency) {
    var format = new Intl.NumberFormat(locale, { style: "currency", currency: currency })
    var digits = format.resolvedOptions().maximumFractionDigits
    return format.format(amount / Math.pow(10, digits))
  }

  var element = function (tag, attributes, children) {
    var node = document.createElement(tag)
    Object.keys(attributes || {}).forEach(function (name) {
      if (name === "text") node.textContent = attributes[name]
      else node.setAttribute(name, attributes[name])
    })
    ;(children || []).forEach(function (child) { if (child) node.appendChild(child) })
    return node
  }

  var newKey = function () {
    return crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random().toString(36).slice(2)
  }

  // ---- Browser adapters: one per provider type, each mounting that provider's own card fields. ----

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

  // ---- The drop-in itself. ----

  var ensureStyle = function () {
    if (document.querySelector("link[data-orchestrator-dropin]")) return
    document.head.appendChild(element("link", { rel: "stylesheet", href: API + "/v1/checkout/dropin.css", "data-orchestrator-dropin": "" }))
  }

  var mount = function (options) {
    var container = typeof options.container === "string" ? document.querySelector(options.container) : options.container
    if (!container) throw new Error("Orchestrator.mount: no container")
    var clientSecret = String(options.clientSecret || "")
    var sessionId = clientSecret.split("_secret_")[0]
    var locale = localeOf(options.locale)
    var onComplete = options.onComplete || function () {}
    var onError = options.onError || function () {}
    ensureStyle()
    try { sessionStorage.setItem(STORAGE + sessionId, clientSecret) } catch (_) { /* storage may be off */ }

    var t = function (key, values) { return say(locale, key, values) }
    var heading = element("h2", { class: "orchestrator-title", text: t("title") })
    var summary = element("dl", { class: "orchestrator-summary" })
    var message = element("div", { class: "orchestrator-message", role: "alert", "aria-live": "assertive", tabindex: "-1" })
    var formHost = element("div", { class: "orchestrator-form" })
    var payButton = element("button", { type: "button", class: "orchestrator-pay" })
    var cancelButton = element("button", { type: "button", class: "orchestrator-cancel", text: t("cancel") })
    var links = element("div", { class: "orchestrator-links" })
    var root = element("section", { class: "orchestrator-dropin", "aria-labelledby": "orchestrator-title", lang: locale }, [
      heading, summary, message, formHost, element("div", { class: "orchestrator-actions" }, [payButton, cancelButton]), links
    ])
    heading.id = "orchestrator-title"
    container.textContent = ""
    container.appendChild(root)

    var relocalize = function (code) {
      locale = code
      root.setAttribute("lang", locale)
      heading.textContent = t("title")
      cancelButton.textContent = t("cancel")
    }

    var session = null
    var form = null
    var formProvider = null
    var busy = false

    var show = function (text, kind, focus) {
      message.textContent = text || ""
      message.className = "orchestrator-message" + (kind ? " orchestrator-" + kind : "")
      if (focus && text) message.focus()
    }
    var setBusy = function (value) {
      busy = value
      payButton.disabled = value
      cancelButton.disabled = value
      root.setAttribute("aria-busy", value ? "true" : "false")
    }
    var showActions = function (visible) {
      payButton.hidden = !visible
      cancelButton.hidden = !visible
    }
    var backLink = function () {
      links.textContent = ""
      if (session) links.appendChild(element("a", { href: session.cancel_url, class: "orchestrator-back", text: t("back") }))
    }
    var unmountForm = function () {
      if (form) form.destroy()
      form = null
      formProvider = null
    }

    var api = function (method, path, body) {
      var headers = { "service-client-secret": clientSecret, accept: "application/json" }
      if (method === "POST") {
        headers["content-type"] = "application/json"
        headers["idempotency-key"] = newKey()
      }
      return fetch(API + path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "omit" })
        .then(function (response) {
          return response.json().then(function (json) { return { status: response.status, json: json } }, function () {
            return { status: response.status, json: null }
          })
        })
    }

    var fail = function (error) {
      setBusy(false)
      show(t("error"), "error", true)
      onError(error)
    }

    var renderSummary = function () {
      summary.textContent = ""
      var rows = [
        [t("total"), formatAmount(locale, session.amount, session.currency)],
        [t("method"), (session.ui.methods || ["card"]).map(function (m) { return m === "card" ? t("card") : m }).join(", ")]
      ]
      rows.forEach(function (row) {
        summary.appendChild(element("dt", { text: row[0] }))
        summary.appendChild(element("dd", { text: row[1] }))
      })
      summary.appendChild(element("dd", { class: "orchestrator-provider", text: t("provider", { provider: shownName(session.ui) }) }))
      payButton.textContent = t("pay", { amount: formatAmount(locale, session.amount, session.currency) })
    }

    var mountForm = function () {
      if (form && formProvider === session.ui.provider) return
      unmountForm()
      var adapter = adapters[session.ui.type]
      if (!adapter) {
        show(t("error"), "error", true)
        onError(new Error("No browser adapter for provider type " + session.ui.type))
        return
      }
      form = adapter(formHost, { locale: locale, title: t("method") + " — " + shownName(session.ui), onSubmit: pay, publishableKey: session.ui.publishable_key })
      formProvider = session.ui.provider
    }

    // The connection's display name; its `provider` name is the merchant's own word, not for shoppers.
    var shownName = function (ui) {
      return (ui && ui.display_name) || t("someProvider")
    }

    var reasonOf = function (payment) {
      var text = payment && payment.failure ? payment.failure.message : ""
      return text && !/[.!?]$/.test(text) ? text + "." : text
    }

    var reroute = function () {
      var failed = session.payment
      // Told to the shopper: what the session's provider is called to them, never its connection name.
      var failedName = shownName(session.ui)
      setBusy(true)
      return api("POST", "/v1/checkout/sessions/" + sessionId + "/reroute", failed ? { exclude_provider: failed.provider } : {})
        .then(function (answer) {
          setBusy(false)
          if (answer.status === 200) {
            render(answer.json, { message: t("rerouted", { failed: failedName, reason: reasonOf(failed), provider: shownName(answer.json.ui) }), kind: "warning" })
            if (form) form.focus()
            return
          }
          if (answer.status === 422) {
            unmountForm()
            showActions(false)
            cancelButton.hidden = false
            show(t("noOther", { reason: reasonOf(failed) }), "error", true)
            return
          }
          return load()
        })
        .catch(fail)
    }

    // A look a second for `tries` seconds, then one every five for as long as the page is open: a
    // payment the provider settles later (by webhook or reconciliation) still ends the page, and the
    // customer is told why it takes long. Only a payment waiting for the customer stops the looking.
    var waitForBank = function (tries) {
      setTimeout(function () {
        api("GET", "/v1/checkout/sessions/" + sessionId).then(function (answer) {
          if (answer.status !== 200) return fail(new Error("session " + answer.status))
          var next = answer.json
          if (next.status !== "processing") return render(next, { patient: false })
          if (tries > 1) return waitForBank(tries - 1)
          if (next.payment && next.payment.status === "requires_action") return render(next, { patient: false })
          if (tries === 1) show(t("stillWaiting"), "info", true)
          waitForBank(0)
        }).catch(fail)
      }, tries > 0 ? 1000 : 5000)
    }

    var render = function (next, context) {
      // The merchant's `locale` first, then the session's, then the browser's.
      if (session === null && !options.locale && next.locale && TEXT[next.locale]) relocalize(next.locale)
      session = next
      context = context || {}
      renderSummary()
      links.textContent = ""
      switch (session.status) {
        case "open":
          showActions(true)
          mountForm()
          show(context.message || "", context.kind, Boolean(context.message))
          return
        case "processing": {
          showActions(false)
          var action = session.payment && session.payment.next_action
          if (session.payment && session.payment.status === "requires_action" && action && context.confirmed) {
            show(t("authenticating"), "info", false)
            window.location.assign(action.url)
            return
          }
          if (context.patient !== false) {
            show(t("waiting"), "info", false)
            return waitForBank(10)
          }
          if (action) {
            show(t("notAuthenticated"), "warning", true)
            links.appendChild(element("a", { href: action.url, class: "orchestrator-continue", text: t("continueAuthentication") }))
          }
          return
        }
        case "payment_failed":
          return reroute()
        case "complete":
          unmountForm()
          showActions(false)
          show(t("complete"), "success", true)
          try { sessionStorage.removeItem(STORAGE + sessionId) } catch (_) { /* nothing to forget */ }
          onComplete(session)
          window.location.assign(session.success_url.split("{CHECKOUT_SESSION_ID}").join(sessionId))
          return
        case "cancelled":
          unmountForm()
          showActions(false)
          show(t("cancelled"), "info", true)
          backLink()
          return
        case "expired":
          unmountForm()
          showActions(false)
          show(t("expired"), "error", true)
          backLink()
          return
      }
    }

    var load = function () {
      return api("GET", "/v1/checkout/sessions/" + sessionId).then(function (answer) {
        if (answer.status === 401 || answer.status === 404) {
          showActions(false)
          show(t("missing"), "error", true)
          onError(new Error("The client secret opens no session"))
          return
        }
        if (answer.status !== 200) return fail(new Error("session " + answer.status))
        render(answer.json)
      }).catch(fail)
    }

    var pay = function () {
      if (busy || !form || !session || session.status !== "open") return
      setBusy(true)
      show(t("paying"), "info", false)
      form.tokenize().then(function (method) {
        return api("POST", "/v1/checkout/sessions/" + sessionId + "/confirm", { payment_method: method }).then(function (answer) {
          setBusy(false)
          if (answer.status === 200) return render(answer.json, { confirmed: true })
          if (answer.status === 409) return load()
          fail(new Error("confirm " + answer.status))
        })
      }, function (error) {
        setBusy(false)
        if (error && error.invalidCard) show(t("invalidCard"), "error", false)
        else fail(error)
      }).catch(fail)
    }

    var cancel = function () {
      if (busy || !session) return
      setBusy(true)
      api("POST", "/v1/checkout/sessions/" + sessionId + "/cancel").then(function (answer) {
        setBusy(false)
        if (answer.status === 200) {
          try { sessionStorage.removeItem(STORAGE + sessionId) } catch (_) { /* nothing to forget */ }
          window.location.assign(session.cancel_url)
          return
        }
        return load()
      }).catch(fail)
    }

    payButton.addEventListener("click", pay)
    cancelButton.addEventListener("click", cancel)
    showActions(false)
    show(t("loading"), "info", false)
    load()
    return { unmount: function () { unmountForm(); container.textContent = "" } }
  }

  window.Orchestrator = {
    mount: mount,
    /** Adds the browser adapter of another provider type (its hosted fields), as `sandbox` is added. */
    registerAdapter: function (type, adapter) { adapters[type] = adapter }
  }

  // The hosted page: `<script src=".../dropin.js" data-mount="#checkout" data-session-id="cs_…">`. The
  // client secret comes in the URL once; it is moved to this tab's session storage and taken off
  // the address bar, and found there again when the bank sends the customer back.
  if (script.dataset.mount) {
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
      mount({ clientSecret: secret, container: container, locale: script.dataset.locale })
    }
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start)
    else start()
  }
})()
