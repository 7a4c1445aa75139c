/**
 * The browser side of the sandbox's card form, served as they are: hand-written JavaScript and CSS
 * (kept free of backticks so they can live in this module, which needs no file system).
 */

export const CARD_FORM_SCRIPT = String.raw`// The sandbox's hosted card fields, running in their own iframe. The card number is turned into a
// sandbox token right here, in the customer's browser: it is never sent anywhere, and the page that
// embeds this frame only ever receives the token (by postMessage).
;(() => {
  "use strict"
  const CARDS = /*CARDS*/ []
  const TEXT = {
    en: {
      number: "Enter a valid card number.",
      unknown: "This is a sandbox: use one of its test cards, such as 4242 4242 4242 4242.",
      expiry: "Enter a future expiry date as MM / YY.",
      cvc: "Enter the 3 or 4 digit security code."
    },
    fr: {
      number: "Saisissez un numéro de carte valide.",
      unknown: "Ceci est un bac à sable : utilisez une de ses cartes de test, par exemple 4242 4242 4242 4242.",
      expiry: "Saisissez une date d'expiration future au format MM / AA.",
      cvc: "Saisissez le code de sécurité à 3 ou 4 chiffres."
    },
    de: {
      number: "Geben Sie eine gültige Kartennummer ein.",
      unknown: "Dies ist eine Sandbox: Verwenden Sie eine ihrer Testkarten, z. B. 4242 4242 4242 4242.",
      expiry: "Geben Sie ein zukünftiges Ablaufdatum als MM / JJ ein.",
      cvc: "Geben Sie die 3- oder 4-stellige Prüfnummer ein."
    }
  }
  const form = document.getElementById("card-form")
  const parentOrigin = form.dataset.parentOrigin
  const text = TEXT[document.documentElement.lang] || TEXT.en
  const fields = {
    number: document.getElementById("card-number"),
    expiry: document.getElementById("card-expiry"),
    cvc: document.getElementById("card-cvc")
  }

  const post = (message) => window.parent.postMessage({ source: "sandbox-card-form", ...message }, parentOrigin)

  const luhn = (digits) => {
    let sum = 0
    for (let i = 0; i < digits.length; i++) {
      let digit = Number(digits[digits.length - 1 - i])
      if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
      sum += digit
    }
    return sum % 10 === 0
  }

  const showError = (name, message) => {
    const input = fields[name]
    const error = document.getElementById(input.id + "-error")
    error.textContent = message || ""
    if (message) input.setAttribute("aria-invalid", "true")
    else input.removeAttribute("aria-invalid")
  }

  const validate = () => {
    const digits = fields.number.value.replace(/[\s-]/g, "")
    const errors = {}
    let card
    if (!/^\d{12,19}$/.test(digits) || !luhn(digits)) errors.number = text.number
    else {
      card = CARDS.find((each) => each.number === digits)
      if (card === undefined) errors.number = text.unknown
    }
    const expiry = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(fields.expiry.value)
    if (expiry === null) errors.expiry = text.expiry
    else {
      const month = Number(expiry[1])
      const year = expiry[2].length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2])
      const now = new Date()
      const future = year > now.getFullYear() || (year === now.getFullYear() && month >= now.getMonth() + 1)
      if (month < 1 || month > 12 || !future) errors.expiry = text.expiry
    }
    if (!/^\d{3,4}$/.test(fields.cvc.value.trim())) errors.cvc = text.cvc
    for (const name of Object.keys(fields)) showError(name, errors[name])
    return { card, errors }
  }

  const tokenize = () => {
    const { card, errors } = validate()
    const invalid = Object.keys(errors)
    if (invalid.length > 0) {
      fields[invalid[0]].focus()
      post({ type: "invalid", message: errors[invalid[0]] })
      return
    }
    post({ type: "token", token: card.token, brand: card.brand, last4: card.last4 })
  }

  // Group the digits as they are typed: 4242 4242 4242 4242.
  fields.number.addEventListener("input", () => {
    const digits = fields.number.value.replace(/\D/g, "").slice(0, 19)
    fields.number.value = digits.replace(/(\d{4})(?=\d)/g, "$1 ")
  })
  fields.expiry.addEventListener("input", () => {
    const digits = fields.expiry.value.replace(/\D/g, "").slice(0, 4)
    fields.expiry.value = digits.length > 2 ? digits.slice(0, 2) + " / " + digits.slice(2) : digits
  })
  // Enter in a field pays, as in any form; the embedding page owns the button.
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    post({ type: "submit" })
  })
  window.addEventListener("message", (event) => {
    if (event.origin !== parentOrigin || event.source !== window.parent) return
    if (event.data && event.data.type === "tokenize") tokenize()
    if (event.data && event.data.type === "focus") fields.number.focus()
  })
  post({ type: "ready", height: document.documentElement.scrollHeight })
})()
`

export const CARD_FORM_STYLE = String.raw`* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.4 system-ui, sans-serif; color: #1a1a2e; background: transparent; }
form { display: grid; grid-template-columns: 1fr 1fr; gap: .75rem; padding: 2px; }
.field { display: flex; flex-direction: column; gap: .25rem; }
.field.wide { grid-column: 1 / -1; }
label { font-weight: 600; font-size: .9rem; }
input { font: inherit; padding: .6rem .7rem; border: 1px solid #8a8aa0; border-radius: 8px; width: 100%; }
input:focus { outline: 3px solid #3b5bdb; outline-offset: 1px; border-color: #3b5bdb; }
input[aria-invalid="true"] { border-color: #c62828; }
.error { color: #b71c1c; font-size: .85rem; min-height: 1.1em; }
.hint { grid-column: 1 / -1; color: #555; font-size: .8rem; margin: 0; }
button.hidden-submit { position: absolute; left: -9999px; width: 1px; height: 1px; }
`
