import type { ExampleRequest } from "@orchestrator/api"
import { get, type ScenarioStep, step } from "./ScenarioStep.js"

/** A one-page PDF small enough to read in the document: its bytes are text. */
export const RECEIPT_PDF = [
  "%PDF-1.4",
  "1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj",
  "2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj",
  "3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] >> endobj",
  "trailer << /Root 1 0 R >>",
  "%%EOF",
  ""
].join("\n")

const upload = (filename: string, contentType: string, text: string): ExampleRequest => ({
  method: "POST",
  path: "/v1/files",
  form: { purpose: "dispute_evidence", file: { filename, content_type: contentType, text } }
})

/** Files uploaded as dispute evidence: a receipt (PDF), its metadata and bytes, and a file refused by its content. */
export const fileSteps: ReadonlyArray<ScenarioStep> = [
  step("files.create", "receipt", 201, "Upload a receipt (PDF) as dispute evidence", () => upload("receipt-2001.pdf", "application/pdf", RECEIPT_PDF), {
    saveAs: "receipt"
  }),
  step(
    "files.create",
    "not_a_pdf",
    400,
    "A file is judged by its content: a web page named .pdf is refused",
    () => upload("invoice.pdf", "application/pdf", "<html><body>Invoice</body></html>")
  ),
  step("files.retrieve", "receipt", 200, "A file's metadata", (saved) => get(`/v1/files/${saved("receipt").id}`)),
  step("files.contents", "receipt", 200, "A file's bytes, as an attachment", (saved) => get(`/v1/files/${saved("receipt").id}/contents`))
]
