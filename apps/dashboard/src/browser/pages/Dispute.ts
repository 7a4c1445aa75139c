import type { Dispute } from "@orchestrator/core"
import { newIdempotencyKey } from "../Client.js"
import { confirmAction } from "../Confirm.js"
import { type PageContext, sameMode } from "../Context.js"
import { h } from "../Dom.js"
import { runAction } from "../Feedback.js"
import { money, when } from "../Format.js"
import { field, idLink } from "../Listing.js"
import { href } from "../Router.js"
import { badge } from "../Table.js"
import { evidenceForm } from "./DisputeEvidenceForm.js"

const facts = (dispute: Dispute) =>
  h(
    "dl",
    { class: "facts" },
    field("Dispute", h("span", { class: "mono", id: "dispute-id" }, dispute.id)),
    field("Payment", h("span", { id: "dispute-payment" }, idLink("payments", dispute.payment_id))),
    field("Amount at stake", money(dispute.amount, dispute.currency)),
    field("Reason", `${dispute.reason.replaceAll("_", " ")}${dispute.reason_code === null ? "" : ` (${dispute.reason_code})`}`),
    field("Stage", dispute.stage.replaceAll("_", " ")),
    field("Funds", dispute.funds),
    field("Evidence due", h("span", { id: "dispute-deadline" }, when(dispute.evidence_due_by))),
    field("Evidence", h("span", { id: "evidence-submission" }, badge(dispute.evidence_submission.status))),
    dispute.evidence_submission.failure === null ? null : field("Refused because", dispute.evidence_submission.failure.message),
    field("Fee", dispute.fee === null ? "—" : money(dispute.fee.amount, dispute.fee.currency)),
    field("Provider", dispute.provider),
    field("Created", when(dispute.created_at))
  )

/**
 * Save evidence, submit it, or accept the dispute: only while it needs a response. Each answer
 * draws the dispute the API returned (a reload could already show the provider's later outcome).
 */
const answers = (context: PageContext, dispute: Dispute, redraw: (dispute: Dispute, done: string) => void) => {
  if (dispute.status !== "needs_response") return null
  const outlet = h("div", { id: "action-result" })
  const save = h("button", { type: "submit", id: "save-evidence" }, "Save evidence") as HTMLButtonElement
  const evidence = evidenceForm(context, dispute, save)
  evidence.form.addEventListener("submit", (event) => {
    event.preventDefault()
    void runAction(save, outlet, async () => {
      redraw(await evidence.save(), "Evidence saved; the provider sees it once you submit it.")
      return undefined
    })
  })
  const submit = h("button", { type: "button", id: "submit-evidence" }, "Submit") as HTMLButtonElement
  submit.addEventListener("click", () =>
    runAction(submit, outlet, async () => {
      const key = newIdempotencyKey()
      const answered = await context.api((client) => client.disputes.submit({ path: { id: dispute.id }, headers: { "idempotency-key": key }, payload: {} }))
      redraw(answered, "Evidence submitted to the provider.")
      return undefined
    }))
  const accept = h("button", { type: "button", id: "accept-dispute", class: "danger" }, "Accept…") as HTMLButtonElement
  accept.addEventListener("click", () =>
    runAction(accept, outlet, async () => {
      const ok = await confirmAction(
        "Accept this dispute?",
        `${money(dispute.amount, dispute.currency)} stays with the customer. This is final.`,
        "Accept dispute"
      )
      if (!ok) return undefined
      const key = newIdempotencyKey()
      const answered = await context.api((client) => client.disputes.accept({ path: { id: dispute.id }, headers: { "idempotency-key": key }, payload: {} }))
      redraw(answered, "Dispute accepted.")
      return undefined
    }))
  return h(
    "section",
    { class: "actions-panel", "aria-label": "Answer" },
    h("h2", {}, "Evidence"),
    evidence.form,
    h("div", { class: "row-actions" }, submit, accept),
    outlet
  )
}

const disputeView = (context: PageContext, dispute: Dispute, done: string | undefined): HTMLElement => {
  const view: HTMLElement = h(
    "article",
    { "aria-labelledby": "dispute-title" },
    h("p", {}, h("a", { href: href("disputes") }, "← Disputes")),
    h("h1", { id: "dispute-title" }, money(dispute.amount, dispute.currency), " ", h("span", { id: "dispute-status" }, badge(dispute.status))),
    done === undefined ? null : h("div", { class: "notice", role: "status", id: "dispute-notice" }, done),
    facts(dispute),
    answers(context, dispute, (answered, message) => {
      sameMode(context.mode, [answered])
      view.replaceWith(disputeView(context, answered, message))
    })
  )
  return view
}

/** One dispute: its facts, and while it needs a response, the evidence form and the answers. */
export const disputePage = async (context: PageContext, id: string) => {
  const dispute = await context.api((client) => client.disputes.retrieve({ path: { id } }))
  sameMode(context.mode, [dispute])
  return disputeView(context, dispute, undefined)
}
