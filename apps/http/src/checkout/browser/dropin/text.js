// What the drop-in says, in each language it speaks, and the amounts it shows in that language.

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
    error: "Something went wrong. Please try again.",
    walletPaypal: "Pay with PayPal",
    walletIdeal: "iDEAL",
    walletBancontact: "Bancontact"
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
    error: "Une erreur s'est produite. Veuillez réessayer.",
    walletPaypal: "Payer avec PayPal",
    walletIdeal: "iDEAL",
    walletBancontact: "Bancontact"
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
    error: "Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.",
    walletPaypal: "Mit PayPal bezahlen",
    walletIdeal: "iDEAL",
    walletBancontact: "Bancontact"
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
