// Reading the session: once at mount and after a conflict, and again and again while the bank
// answers.

var load = function (dropin) {
  return api(dropin, "GET", sessionPath(dropin)).then(function (answer) {
    if (answer.status === 401 || answer.status === 404) {
      showActions(dropin, false)
      show(dropin, say(dropin.locale, "missing"), "error", true)
      dropin.onError(new Error("The client secret opens no session"))
      return
    }
    if (answer.status !== 200) return fail(dropin, new Error("session " + answer.status))
    render(dropin, answer.json)
  }).catch(function (error) { fail(dropin, error) })
}

// A look a second for `tries` seconds, then one every five for as long as the page is open: a
// payment the provider settles later (by webhook or reconciliation) still ends the page, and the
// customer is told why it takes long. Only a payment waiting for the customer stops the looking.
var waitForBank = function (dropin, tries) {
  setTimeout(function () {
    api(dropin, "GET", sessionPath(dropin)).then(function (answer) {
      if (answer.status !== 200) return fail(dropin, new Error("session " + answer.status))
      var next = answer.json
      if (next.status !== "processing") return render(dropin, next, { patient: false })
      if (tries > 1) return waitForBank(dropin, tries - 1)
      if (next.payment && next.payment.status === "requires_action") return render(dropin, next, { patient: false })
      if (tries === 1) show(dropin, say(dropin.locale, "stillWaiting"), "info", true)
      waitForBank(dropin, 0)
    }).catch(function (error) { fail(dropin, error) })
  }, tries > 0 ? 1000 : 5000)
}
