// The session's endpoints, called with its client secret: each answer as its status and JSON body.

var newKey = function () {
  return crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random().toString(36).slice(2)
}

var api = function (dropin, method, path, body) {
  var headers = { "service-client-secret": dropin.clientSecret, accept: "application/json" }
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

var sessionPath = function (dropin, action) {
  return "/v1/checkout/sessions/" + dropin.sessionId + (action ? "/" + action : "")
}
