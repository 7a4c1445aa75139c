/* global window */
// Mounts the API reference (Scalar) from this origin's own files. Only what keeps the page offline
// and private is set here: no default fonts (a third party's), no toolbar ("Share", "Generate
// SDKs"), no "Open in client" button, no telemetry, no proxy, and the key typed in Authorize is
// never persisted (it lives in this page only and is gone on reload).
//
// The recorded examples' Idempotency-Keys all start with "example-". A key is the identity of a
// request: sent again with another body it answers 422, and a reader who pressed Send twice, or
// earlier sent a request of their own under it, would meet exactly that. So each Send of such a key
// goes out under a fresh one instead; a key the reader typed is sent as typed (twice, to see a replay).
var EXAMPLE_KEY = /^example-/

var freshKeys = function(request) {
  var key = request.headers.get("idempotency-key")
  if (key !== null && EXAMPLE_KEY.test(key)) request.headers.set("idempotency-key", "example-" + crypto.randomUUID())
}

window.Scalar.createApiReference("#reference", {
  url: "/v1/openapi.json",
  withDefaultFonts: false,
  showToolbar: "never",
  hideClientButton: true,
  telemetry: false,
  persistAuth: false,
  documentDownloadType: "json",
  authentication: { preferredSecurityScheme: "bearer" },
  onBeforeRequest: function(context) {
    freshKeys(context.request)
  }
})
