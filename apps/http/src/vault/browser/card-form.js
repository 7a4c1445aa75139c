// The vault's card form, in its own frame on the vault's origin. The number, expiry, security code and
// name are checked here as the API checks them (same codes), sent only to this origin's
// `POST /v1/card_form/payment_methods`, and the embedding page is handed the `pm_…` and the masked
// card alone, by postMessage to the one origin it declared (which is also the only one allowed to
// frame this page: its Content-Security-Policy says `frame-ancestors <that origin>`).
// A page of its own (the frame), so its top-level names reach no other page.
"use strict"

var form = document.getElementById("card-form")
var parentOrigin = form.dataset.parentOrigin
// The credential comes in the address's fragment (never sent to a server, nor in a Referer), and
// is taken off it at once.
var credential = new URLSearchParams(window.location.hash.slice(1))
var publishableKey = credential.get("key") || ""
var clientSecret = credential.get("client_secret") || ""
history.replaceState(null, "", window.location.pathname + window.location.search)
var fields = {
  number: document.getElementById("card-number"),
  expiry: document.getElementById("card-expiry"),
  cvc: document.getElementById("card-cvc"),
  name: document.getElementById("card-name")
}
var FIELD_OF = { "card.number": "number", "card.exp_month": "expiry", "card.exp_year": "expiry", "card.cvc": "cvc", "card.holder_name": "name" }
var MESSAGES = {
  invalid_number: "Enter a valid card number.",
  invalid_expiry_month: "Enter the expiry as MM / YY.",
  invalid_expiry_year: "Enter the expiry as MM / YY.",
  expired_card: "This card has expired.",
  invalid_cvc: "Enter the card's security code."
}

var post = function(message) {
  message.source = "orchestrator-card-form"
  window.parent.postMessage(message, parentOrigin)
}

var digitsOf = function(text) {
  return text.replace(/[\s-]/g, "")
}
var luhn = function(digits) {
  var sum = 0
  for (var i = 0; i < digits.length; i++) {
    var digit = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
    sum += digit
  }
  return sum % 10 === 0
}
var isAmex = function(digits) {
  return /^3[47]/.test(digits)
}

// The card as the API takes it, or the first problem with its code and field (as the API names them).
var read = function() {
  var digits = digitsOf(fields.number.value)
  if (!/^\d{13,19}$/.test(digits) || !luhn(digits)) return { problem: "invalid_number", param: "card.number" }
  var expiry = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(fields.expiry.value)
  if (expiry === null) return { problem: "invalid_expiry_month", param: "card.exp_month" }
  var month = Number(expiry[1])
  var year = expiry[2].length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2])
  if (month < 1 || month > 12) return { problem: "invalid_expiry_month", param: "card.exp_month" }
  var now = new Date()
  if (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1)) return { problem: "expired_card", param: "card.exp_year" }
  var cvc = fields.cvc.value.trim()
  if (!new RegExp("^[0-9]{" + (isAmex(digits) ? 4 : 3) + "}$").test(cvc)) return { problem: "invalid_cvc", param: "card.cvc" }
  var card = { number: digits, exp_month: month, exp_year: year, cvc: cvc }
  var name = fields.name.value.trim()
  if (name) card.holder_name = name
  return { card: card }
}

var showError = function(name, message) {
  var input = fields[name]
  document.getElementById(input.id + "-error").textContent = message || ""
  if (message) input.setAttribute("aria-invalid", "true")
  else input.removeAttribute("aria-invalid")
}
var clearErrors = function() {
  Object.keys(fields).forEach(function(name) {
    showError(name, "")
  })
}
// A refusal, the form's or the API's: shown at its field, and told to the page by code only.
var refuse = function(code, param, message) {
  var name = FIELD_OF[param] || "number"
  showError(name, MESSAGES[code] || message || MESSAGES.invalid_number)
  fields[name].focus()
  post({ type: "invalid", code: code, param: param })
}

var busy = false
var tokenize = function() {
  if (busy) return
  clearErrors()
  var entered = read()
  if (entered.problem) return refuse(entered.problem, entered.param)
  busy = true
  var headers = { "content-type": "application/json", accept: "application/json" }
  if (publishableKey) headers.authorization = "Bearer " + publishableKey
  else headers["service-client-secret"] = clientSecret
  fetch("/v1/card_form/payment_methods", {
    method: "POST",
    headers: headers,
    body: JSON.stringify({ type: "card", card: entered.card }),
    credentials: "omit"
  }).then(function(response) {
    return response.json().then(function(json) {
      return { status: response.status, json: json }
    })
  }).then(function(answer) {
    busy = false
    if (answer.status === 201) {
      var method = answer.json
      post({
        type: "token",
        payment_method: {
          id: method.id,
          livemode: method.livemode,
          card: { brand: method.card.brand, last4: method.card.last4, exp_month: method.card.exp_month, exp_year: method.card.exp_year }
        }
      })
      return
    }
    var error = (answer.json && answer.json.error) || {}
    if (answer.status === 400 && MESSAGES[error.code]) return refuse(error.code, error.param, error.message)
    post({ type: "error", status: answer.status, code: error.code || null })
  }).catch(function() {
    busy = false
    post({ type: "error", status: 0, code: null })
  })
}

// Group the digits as they are typed: 4242 4242 4242 4242.
fields.number.addEventListener("input", function() {
  var digits = fields.number.value.replace(/\D/g, "").slice(0, 19)
  fields.number.value = digits.replace(/(\d{4})(?=\d)/g, "$1 ")
})
fields.expiry.addEventListener("input", function() {
  var digits = fields.expiry.value.replace(/\D/g, "").slice(0, 4)
  fields.expiry.value = digits.length > 2 ? digits.slice(0, 2) + " / " + digits.slice(2) : digits
})
// Enter in a field asks the page to pay, as in any form; the embedding page owns the button.
form.addEventListener("submit", function(event) {
  event.preventDefault()
  post({ type: "submit" })
})
window.addEventListener("message", function(event) {
  if (event.origin !== parentOrigin || event.source !== window.parent || !event.data) return
  if (event.data.type === "tokenize") tokenize()
  if (event.data.type === "focus") fields.number.focus()
})
post({ type: "ready", height: document.documentElement.scrollHeight })
