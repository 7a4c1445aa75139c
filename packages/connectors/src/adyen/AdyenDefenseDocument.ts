import type { DisputeEvidence } from "@orchestrator/core"

/**
 * Adyen takes defense material as documents (PDF, JPEG, TIFF), not as text: the merchant's evidence
 * texts are written into a plain PDF (Helvetica, A4, as many pages as they need).
 */

const LINE_WIDTH = 90
const LINES_PER_PAGE = 60

const LABELS: ReadonlyArray<readonly [Exclude<keyof DisputeEvidence, "files">, string]> = [
  ["product_description", "Product"],
  ["customer_name", "Customer"],
  ["customer_email", "Customer email"],
  ["customer_communication", "Customer communication"],
  ["receipt", "Receipt"],
  ["shipping_carrier", "Shipping carrier"],
  ["shipping_tracking_number", "Tracking number"],
  ["shipping_date", "Shipping date"],
  ["refund_policy", "Refund policy"],
  ["cancellation_policy", "Cancellation policy"],
  ["uncategorized_text", "Other"]
]

/** Text as PDF's standard fonts can show it (Latin-1), escaped for a PDF string. */
const pdfText = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, "?").replace(/[\\()]/g, (char) => `\\${char}`)

/** A long line cut into lines of at most `LINE_WIDTH` characters, at spaces where it can. */
const wrap = (line: string): ReadonlyArray<string> => {
  const lines: Array<string> = []
  let rest = line
  while (rest.length > LINE_WIDTH) {
    const space = rest.lastIndexOf(" ", LINE_WIDTH)
    const cut = space > 0 ? space : LINE_WIDTH
    lines.push(rest.slice(0, cut))
    rest = rest.slice(cut).trimStart()
  }
  return [...lines, rest]
}

/** Whether the evidence says anything in text (else its lines are only that the merchant contests). */
export const evidenceHasText = (evidence: DisputeEvidence) => LABELS.some(([key]) => evidence[key] !== undefined)

/** The evidence as lines: each field given, under its label. */
export const evidenceLines = (evidence: DisputeEvidence): ReadonlyArray<string> => {
  const lines = LABELS.flatMap(([key, label]) => {
    const value = evidence[key]
    return value === undefined ? [] : [`${label}:`, ...value.split(/\r?\n/).flatMap(wrap), ""]
  })
  return lines.length === 0 ? ["The merchant contests this dispute."] : lines
}

/** A PDF of `lines`, base64-encoded as Adyen's `DefenseDocument.content` takes it. */
export const textPdf = (lines: ReadonlyArray<string>): string => {
  const pages: Array<ReadonlyArray<string>> = []
  for (let at = 0; at < lines.length; at += LINES_PER_PAGE) pages.push(lines.slice(at, at + LINES_PER_PAGE))
  if (pages.length === 0) pages.push([])
  // Objects: 1 catalog, 2 pages, 3 font, then a page and its content per page.
  const objects: Array<string> = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${4 + 2 * i} 0 R`).join(" ")}] /Count ${pages.length} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
  ]
  pages.forEach((page, i) => {
    const stream = `BT /F1 10 Tf 12 TL 50 800 Td ${page.map((line) => `(${pdfText(line)}) '`).join(" ")} ET`
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`)
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`)
  })
  let body = "%PDF-1.4\n"
  const offsets: Array<number> = []
  objects.forEach((object, i) => {
    offsets.push(body.length)
    body += `${i + 1} 0 obj\n${object}\nendobj\n`
  })
  const xref = body.length
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("")}`
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  // Latin-1 only (pdfText saw to it): one byte per character, as btoa reads them.
  return btoa(body)
}
