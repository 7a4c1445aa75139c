import { readFileSync } from "node:fs"

/**
 * The drop-in's parts (`browser/dropin/`), in the order the script runs them. Each is top-level
 * declarations of one idea; a part may use what any part declares, but the script's last part runs
 * the hosted page's mount, so everything it reaches must be declared before it.
 */
const DROPIN_PARTS = [
  "tag.js",
  "text.js",
  "elements.js",
  "adapters.js",
  "view.js",
  "requests.js",
  "form.js",
  "render.js",
  "session.js",
  "actions.js",
  "wallets.js",
  "mount.js",
  "start.js"
]

const part = (name: string) => readFileSync(new URL(`./browser/dropin/${name}`, import.meta.url), "utf8")

/**
 * `/v1/checkout/dropin.js`: the parts as one classic script (it reads its settings from its own tag
 * through `document.currentScript`, which a module has not), inside one strict function so that
 * nothing but `window.Orchestrator` reaches the merchant's page. Built once, when the service loads.
 */
export const dropinScript = [";(function () {", "\"use strict\"", ...DROPIN_PARTS.map(part), "})()", ""].join("\n")
