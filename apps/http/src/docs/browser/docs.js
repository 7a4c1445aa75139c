/* global window */
// Mounts the API reference (Scalar) from this origin's own files. Only what keeps the page offline
// and private is set here: no default fonts (a third party's), no toolbar ("Share", "Generate
// SDKs"), no "Open in client" button, no telemetry, no proxy, and the key typed in Authorize is
// never persisted (it lives in this page only and is gone on reload).
window.Scalar.createApiReference("#reference", {
  url: "/v1/openapi.json",
  withDefaultFonts: false,
  showToolbar: "never",
  hideClientButton: true,
  telemetry: false,
  persistAuth: false,
  documentDownloadType: "json",
  authentication: { preferredSecurityScheme: "bearer" }
})
