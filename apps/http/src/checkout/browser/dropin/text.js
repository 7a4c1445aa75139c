// What the drop-in says, in each language it speaks, and the amounts it shows in that language. It
// names the merchant (the organization's display name, `ui.merchant_name`), says plainly what
// happened and what the shopper can do, and never names a provider but by the display name its
// merchant gave it. A sentence ending in `To` names the merchant; the one without it is for a session
// that carries no merchant name.

var TEXT = {
  en: {
    title: "Checkout",
    payTo: "Pay {merchant}",
    total: "Total",
    method: "Payment method",
    card: "Card",
    cardDetails: "Card details",
    provider: "Processed by {provider}",
    pay: "Pay {amount}",
    paying: "Processing your payment…",
    cancel: "Cancel and return to the shop",
    cancelTo: "Cancel and return to {merchant}",
    back: "Return to the shop",
    backTo: "Return to {merchant}",
    loading: "Loading…",
    complete: "Payment received, thank you. Taking you back to the shop…",
    completeTo: "Payment received, thank you. Taking you back to {merchant}…",
    authenticating: "Redirecting you to your bank to confirm the payment…",
    waiting: "Waiting for your bank's answer…",
    stillWaiting: "Your payment is still being confirmed. This page updates by itself once it is; you will not be charged twice.",
    notAuthenticated: "The payment still needs your bank's confirmation.",
    continueAuthentication: "Continue with your bank",
    retry: "Your payment did not go through. {reason} Nothing was charged. Please try again: enter your card details once more, or use another card.",
    noOther: "Your payment did not go through. {reason} Nothing was charged. It cannot be completed here: please return to the shop to pay another way.",
    noOtherTo: "Your payment did not go through. {reason} Nothing was charged. It cannot be completed here: please return to {merchant} to pay another way.",
    invalidCard: "Please check your card details.",
    expired: "This payment page has expired, and nothing was charged. Please return to the shop and start again.",
    expiredTo: "This payment page has expired, and nothing was charged. Please return to {merchant} and start again.",
    cancelled: "This payment was cancelled, and nothing was charged.",
    missing: "This payment link is incomplete or no longer valid.",
    error: "Something went wrong and your payment could not be confirmed. Please try again: you will not be charged twice.",
    walletPaypal: "Pay with PayPal",
    walletIdeal: "iDEAL",
    walletBancontact: "Bancontact",
    reasonDeclined: "Your card was declined.",
    reasonFunds: "The card has insufficient funds.",
    reasonExpired: "The card has expired.",
    reasonCvc: "The security code is incorrect.",
    reasonNumber: "The card number is incorrect.",
    reasonExpiry: "The expiry date is incorrect.",
    reasonAuthentication: "Your bank did not confirm the payment.",
    reasonProcessing: "It could not be processed just now.",
    reasonUnusable: "Your card details could not be used.",
    reasonOther: "It was declined."
  },
  fr: {
    title: "Paiement",
    payTo: "Payer {merchant}",
    total: "Total",
    method: "Moyen de paiement",
    card: "Carte",
    cardDetails: "Données de la carte",
    provider: "Traité par {provider}",
    pay: "Payer {amount}",
    paying: "Paiement en cours…",
    cancel: "Annuler et revenir à la boutique",
    cancelTo: "Annuler et revenir à {merchant}",
    back: "Revenir à la boutique",
    backTo: "Revenir à {merchant}",
    loading: "Chargement…",
    complete: "Paiement reçu, merci. Retour à la boutique…",
    completeTo: "Paiement reçu, merci. Retour à {merchant}…",
    authenticating: "Redirection vers votre banque pour confirmer le paiement…",
    waiting: "En attente de la réponse de votre banque…",
    stillWaiting: "Votre paiement est toujours en cours de confirmation. Cette page se mettra à jour d'elle-même ; vous ne serez pas débité deux fois.",
    notAuthenticated: "Le paiement attend encore la confirmation de votre banque.",
    continueAuthentication: "Continuer avec votre banque",
    retry: "Votre paiement n'a pas abouti. {reason} Rien n'a été débité. Veuillez réessayer : saisissez à nouveau votre carte, ou utilisez-en une autre.",
    noOther: "Votre paiement n'a pas abouti. {reason} Rien n'a été débité. Il ne peut pas être effectué ici : veuillez revenir à la boutique pour payer autrement.",
    noOtherTo: "Votre paiement n'a pas abouti. {reason} Rien n'a été débité. Il ne peut pas être effectué ici : veuillez revenir à {merchant} pour payer autrement.",
    invalidCard: "Veuillez vérifier les données de votre carte.",
    expired: "Cette session de paiement a expiré, et rien n'a été débité. Veuillez revenir à la boutique et recommencer.",
    expiredTo: "Cette session de paiement a expiré, et rien n'a été débité. Veuillez revenir à {merchant} et recommencer.",
    cancelled: "Ce paiement a été annulé, et rien n'a été débité.",
    missing: "Ce lien de paiement est incomplet ou n'est plus valable.",
    error: "Une erreur s'est produite et votre paiement n'a pas pu être confirmé. Veuillez réessayer : vous ne serez pas débité deux fois.",
    walletPaypal: "Payer avec PayPal",
    walletIdeal: "iDEAL",
    walletBancontact: "Bancontact",
    reasonDeclined: "Votre carte a été refusée.",
    reasonFunds: "Le solde de la carte est insuffisant.",
    reasonExpired: "La carte a expiré.",
    reasonCvc: "Le code de sécurité est incorrect.",
    reasonNumber: "Le numéro de carte est incorrect.",
    reasonExpiry: "La date d'expiration est incorrecte.",
    reasonAuthentication: "Votre banque n'a pas confirmé le paiement.",
    reasonProcessing: "Il n'a pas pu être traité pour le moment.",
    reasonUnusable: "Les données de votre carte n'ont pas pu être utilisées.",
    reasonOther: "Il a été refusé."
  },
  de: {
    title: "Bezahlung",
    payTo: "{merchant} bezahlen",
    total: "Gesamt",
    method: "Zahlungsart",
    card: "Karte",
    cardDetails: "Kartendaten",
    provider: "Abgewickelt über {provider}",
    pay: "{amount} bezahlen",
    paying: "Ihre Zahlung wird verarbeitet…",
    cancel: "Abbrechen und zum Shop zurückkehren",
    cancelTo: "Abbrechen und zurück zu {merchant}",
    back: "Zum Shop zurückkehren",
    backTo: "Zurück zu {merchant}",
    loading: "Wird geladen…",
    complete: "Zahlung erhalten, vielen Dank. Sie werden zum Shop zurückgeleitet…",
    completeTo: "Zahlung erhalten, vielen Dank. Sie werden zu {merchant} zurückgeleitet…",
    authenticating: "Sie werden zur Bestätigung der Zahlung zu Ihrer Bank weitergeleitet…",
    waiting: "Warten auf die Antwort Ihrer Bank…",
    stillWaiting: "Ihre Zahlung wird noch bestätigt. Diese Seite aktualisiert sich von selbst; Sie werden nicht doppelt belastet.",
    notAuthenticated: "Die Zahlung wartet noch auf die Bestätigung Ihrer Bank.",
    continueAuthentication: "Weiter zu Ihrer Bank",
    retry: "Ihre Zahlung ist nicht durchgegangen. {reason} Es wurde nichts abgebucht. Bitte versuchen Sie es erneut: Geben Sie Ihre Karte noch einmal ein oder verwenden Sie eine andere.",
    noOther: "Ihre Zahlung ist nicht durchgegangen. {reason} Es wurde nichts abgebucht. Sie kann hier nicht abgeschlossen werden: Bitte kehren Sie zum Shop zurück, um anders zu bezahlen.",
    noOtherTo: "Ihre Zahlung ist nicht durchgegangen. {reason} Es wurde nichts abgebucht. Sie kann hier nicht abgeschlossen werden: Bitte kehren Sie zu {merchant} zurück, um anders zu bezahlen.",
    invalidCard: "Bitte prüfen Sie Ihre Kartendaten.",
    expired: "Diese Bezahlsitzung ist abgelaufen, es wurde nichts abgebucht. Bitte kehren Sie zum Shop zurück und beginnen Sie erneut.",
    expiredTo: "Diese Bezahlsitzung ist abgelaufen, es wurde nichts abgebucht. Bitte kehren Sie zu {merchant} zurück und beginnen Sie erneut.",
    cancelled: "Diese Zahlung wurde abgebrochen, es wurde nichts abgebucht.",
    missing: "Dieser Zahlungslink ist unvollständig oder nicht mehr gültig.",
    error: "Etwas ist schiefgelaufen, Ihre Zahlung konnte nicht bestätigt werden. Bitte versuchen Sie es erneut: Sie werden nicht doppelt belastet.",
    walletPaypal: "Mit PayPal bezahlen",
    walletIdeal: "iDEAL",
    walletBancontact: "Bancontact",
    reasonDeclined: "Ihre Karte wurde abgelehnt.",
    reasonFunds: "Die Karte ist nicht ausreichend gedeckt.",
    reasonExpired: "Die Karte ist abgelaufen.",
    reasonCvc: "Der Sicherheitscode ist falsch.",
    reasonNumber: "Die Kartennummer ist falsch.",
    reasonExpiry: "Das Ablaufdatum ist falsch.",
    reasonAuthentication: "Ihre Bank hat die Zahlung nicht bestätigt.",
    reasonProcessing: "Sie konnte gerade nicht verarbeitet werden.",
    reasonUnusable: "Ihre Kartendaten konnten nicht verwendet werden.",
    reasonOther: "Sie wurde abgelehnt."
  }
}

// Why a payment failed, in the shopper's language: the service's failure code, read into a sentence
// of the drop-in's own (the service's message is English, for the merchant).
var REASONS = {
  card_declined: "reasonDeclined",
  lost_card: "reasonDeclined",
  stolen_card: "reasonDeclined",
  fraudulent: "reasonDeclined",
  invalid_amount: "reasonDeclined",
  payment_method_declined: "reasonDeclined",
  insufficient_funds: "reasonFunds",
  expired_card: "reasonExpired",
  incorrect_cvc: "reasonCvc",
  incorrect_number: "reasonNumber",
  invalid_expiry: "reasonExpiry",
  authentication_required: "reasonAuthentication",
  authentication_failed: "reasonAuthentication",
  processing_error: "reasonProcessing",
  try_again_later: "reasonProcessing",
  rate_limited: "reasonProcessing",
  provider_unavailable: "reasonProcessing",
  // The vault could not open the card it kept: the shopper types it again.
  payment_method_unusable: "reasonUnusable"
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

/** The sentence that names the merchant when the session says who it is, else the one that says "the shop". */
var sayShop = function (dropin, key, values) {
  var merchant = dropin.session && dropin.session.ui && dropin.session.ui.merchant_name
  if (!merchant) return say(dropin.locale, key, values)
  var named = { merchant: merchant }
  for (var name in values || {}) named[name] = values[name]
  return say(dropin.locale, key + "To", named)
}

/** Minor units to a localized amount: the currency's own exponent, as Intl knows it. */
var formatAmount = function (locale, amount, currency) {
  var format = new Intl.NumberFormat(locale, { style: "currency", currency: currency })
  var digits = format.resolvedOptions().maximumFractionDigits
  return format.format(amount / Math.pow(10, digits))
}
