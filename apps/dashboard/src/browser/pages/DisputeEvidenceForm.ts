import type { Dispute } from "@orchestrator/core"
import type { PageContext } from "../Context.js"
import { h } from "../Dom.js"

/** The evidence text fields the form offers, by the API's names. */
const TEXT_FIELDS = [
  { name: "product_description", label: "Product description", multiline: true },
  { name: "customer_name", label: "Customer name", multiline: false },
  { name: "customer_email", label: "Customer email", multiline: false },
  { name: "shipping_carrier", label: "Shipping carrier", multiline: false },
  { name: "shipping_tracking_number", label: "Shipping tracking number", multiline: false },
  { name: "uncategorized_text", label: "Other evidence", multiline: true }
] as const

type TextField = (typeof TEXT_FIELDS)[number]["name"]

export interface EvidenceForm {
  readonly form: HTMLFormElement
  /** Uploads the chosen file, if any, then saves the evidence; resolves with the dispute as saved. */
  readonly save: () => Promise<Dispute>
}

/** Uploads one file as dispute evidence (`POST /v1/files`, multipart); resolves with its id. */
const upload = async (context: PageContext, file: File) => {
  const data = new FormData()
  data.append("purpose", "dispute_evidence")
  data.append("file", file, file.name)
  const uploaded = await context.api((client) => client.files.create({ payload: data }))
  return uploaded.id
}

/**
 * The evidence form, filled with what was saved. Empty fields are left out of the save (the API
 * keeps what was saved for them); the file, when one is chosen, is kept as `uncategorized_file`.
 */
export const evidenceForm = (context: PageContext, dispute: Dispute, saveButton: HTMLButtonElement): EvidenceForm => {
  const inputs = TEXT_FIELDS.map((field) => {
    const value = dispute.evidence[field.name] ?? ""
    const input = field.multiline
      ? h("textarea", { id: `evidence-${field.name}`, name: field.name, rows: 3, maxlength: 5000 }, value)
      : h("input", { id: `evidence-${field.name}`, name: field.name, value, maxlength: 5000 })
    return { name: field.name, label: field.label, input: input as HTMLInputElement | HTMLTextAreaElement }
  })
  const saved = dispute.evidence.files?.uncategorized_file
  const file = h("input", { id: "evidence-file", type: "file", accept: "application/pdf,image/png,image/jpeg" }) as HTMLInputElement
  const form = h(
    "form",
    { class: "action", "aria-label": "Evidence", id: "evidence-form" },
    inputs.map((each) => [h("label", { for: each.input.id }, each.label), each.input]),
    h("label", { for: "evidence-file" }, "File (PDF, PNG or JPEG)"),
    file,
    saved === undefined || saved === null ? null : h("small", { id: "evidence-saved-file" }, "Saved: ", h("span", { class: "mono" }, saved)),
    saveButton
  ) as HTMLFormElement
  const save = async () => {
    const chosen = file.files?.[0]
    const fileId = chosen === undefined ? undefined : await upload(context, chosen)
    const texts: Partial<Record<TextField, string>> = {}
    for (const each of inputs) if (each.input.value.trim() !== "") texts[each.name] = each.input.value.trim()
    return context.api((client) =>
      client.disputes.evidence({
        path: { id: dispute.id },
        headers: {},
        payload: { ...texts, ...(fileId === undefined ? {} : { files: { uncategorized_file: fileId } }) }
      })
    )
  }
  return { form, save }
}
