// The checkout drop-in: one self-contained script, served by the service at /v1/checkout/dropin.js.
//
//   Orchestrator.mount({ clientSecret, container, locale, onComplete, onError })
//
// It reads the session's public view with its client secret, mounts the card form of the session's
// current provider (each provider type has a browser adapter), confirms with the token that form
// makes, follows a 3D Secure redirect and picks up again on the way back, and after a rejection
// reroutes the session to another provider and mounts that provider's form. Card numbers only ever
// live inside the provider's own frame, or the vault's card form (`ui.card_form_url`).
//
// The service serves the files of this folder as one classic script, in the order `DropinScript.ts`
// lists them, inside one "use strict" function: each file is the body's next declarations, sharing
// its scope. A classic script, not a module: it reads its settings from its own tag.

var script = document.currentScript
var API = new URL(script.src).origin
var STORAGE = "orchestrator.checkout."
