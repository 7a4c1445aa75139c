import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { type Currency, isStorable, toDecimalString } from "@orchestrator/core"
import { type Context, Effect, Option } from "effect"
import { SandboxLedger } from "./SandboxLedger.js"
import { notifyCharge } from "./SandboxNotifications.js"

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${title}</title><style>
body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#1a1a2e}
.card{border:1px solid #d0d0e0;border-radius:12px;padding:1.5rem}
button{font:inherit;padding:.6rem 1.2rem;border-radius:8px;border:0;cursor:pointer;margin-right:.5rem}
#complete{background:#2e7d32;color:#fff}#fail{background:#c62828;color:#fff}
small{color:#666}</style></head><body><div class="card">${body}</div></body></html>`

/** The charge a challenge URL names; an id the ledger could not even hold (NUL) names none. */
const chargeNamed = (ledger: Context.Tag.Service<SandboxLedger>, chargeId: string | undefined) =>
  chargeId === undefined || !isStorable(chargeId)
    ? Effect.succeed(undefined)
    : Effect.map(ledger.findCharge(chargeId), Option.getOrUndefined)

const htmlResponse = (html: string, status = 200) => HttpServerResponse.text(html, { status, contentType: "text/html; charset=utf-8" })

/**
 * The sandbox's 3D Secure challenge, the page a real issuer would show. Completing or failing it
 * settles the charge and sends the customer back to the return URL the payment was made with.
 */
export const SandboxChallengeRoutes = HttpRouter.empty.pipe(
  HttpRouter.get(
    "/sandbox/3ds/:chargeId",
    Effect.gen(function*() {
      const { chargeId } = yield* HttpRouter.params
      const ledger = yield* SandboxLedger
      const charge = yield* chargeNamed(ledger, chargeId)
      if (charge === undefined) {
        return htmlResponse(page("Not found", "<h1>Unknown challenge</h1>"), 404)
      }
      const amount = `${toDecimalString(charge.amount, charge.currency as Currency)} ${escapeHtml(charge.currency)}`
      const id = escapeHtml(charge.id)
      const body = charge.status === "requires_action"
        ? `<h1>Sandbox 3D Secure</h1><p>Confirm the payment of <strong>${amount}</strong>.</p>
<form method="post" action="/sandbox/3ds/${id}/complete" style="display:inline"><button id="complete">Complete</button></form>
<form method="post" action="/sandbox/3ds/${id}/fail" style="display:inline"><button id="fail">Fail</button></form>
<p><small>This page stands in for the card issuer. No real card is involved.</small></p>`
        : `<h1>Sandbox 3D Secure</h1><p>This challenge is already over (${escapeHtml(charge.status)}).</p>`
      return htmlResponse(page("Sandbox 3D Secure", body))
    })
  ),
  HttpRouter.post(
    "/sandbox/3ds/:chargeId/:result",
    Effect.gen(function*() {
      const { chargeId, result } = yield* HttpRouter.params
      const ledger = yield* SandboxLedger
      const charge = yield* chargeNamed(ledger, chargeId)
      if (charge === undefined || (result !== "complete" && result !== "fail")) {
        return htmlResponse(page("Not found", "<h1>Unknown challenge</h1>"), 404)
      }
      // Read the form body so the connection can be reused; its content does not matter.
      yield* Effect.ignore(Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => request.text))
      // Only a pending challenge settles, once: a second click or a cancel racing it changes nothing.
      const settled = yield* ledger.transitionCharge(
        charge.id,
        ["requires_action"],
        result === "complete"
          ? { status: charge.capture ? "succeeded" : "authorized", amountCaptured: charge.capture ? charge.amount : 0 }
          : {
            status: "failed",
            failureCode: "authentication_failed",
            failureMessage: "The customer failed 3D Secure authentication."
          }
      )
      // Like a real PSP, the sandbox also says so by webhook: the customer may never come back.
      if (Option.isSome(settled)) yield* notifyCharge(ledger, settled.value)
      return HttpServerResponse.empty({ status: 303, headers: { location: charge.returnUrl } })
    })
  )
)
