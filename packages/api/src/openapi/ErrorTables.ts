import { componentOf, type Json, operationsIn } from "./DocumentJson.js"

/**
 * What `code` can be when the error class does not fix it: 400s name the field that failed, and
 * declines carry the PSP's normalized failure code.
 */
const OPEN_CODES: Readonly<Record<string, string>> = {
  invalid_request_error: "`parameter_invalid`, `parameter_missing`, `parameter_unknown`, `parameter_invalid_length`, `invalid_json`, " +
    "`request_malformed` or `api_version_invalid`; `param` names the field",
  payment_error: "the failure code: `card_declined`, `insufficient_funds`, `expired_card`, `incorrect_cvc`, " +
    "`authentication_failed`, `processing_error`, …"
}

interface ErrorRow {
  readonly status: string
  readonly type: string
  readonly codes: string
  readonly when: string
}

const refsOf = (schema: Json | undefined): Array<string> =>
  schema === undefined ? [] : schema.$ref !== undefined ? [schema.$ref] : (schema.anyOf ?? []).flatMap(refsOf)

const rowsOf = (spec: Json, status: string, response: Json): Array<ErrorRow> => {
  const rows = refsOf(response.content?.["application/json"]?.schema).flatMap((ref) => {
    const component = componentOf(spec, ref)
    const details = component?.properties?.error?.properties
    if (component === undefined || details === undefined) return []
    const type: string = details.type?.enum?.[0] ?? ""
    const codes: Array<string> | undefined = details.code?.enum
    return [{
      status,
      type,
      codes: codes === undefined ? OPEN_CODES[type] ?? "see `message`" : codes.map((code) => `\`${code}\``).join(", "),
      when: component.description ?? ""
    }]
  })
  // A status whose body is not the error envelope (`/readyz`'s 503) is still listed, by its description.
  return rows.length > 0 ? rows : [{ status, type: "", codes: "", when: response.description ?? "" }]
}

const tableOf = (rows: ReadonlyArray<ErrorRow>) =>
  [
    "**Errors** (the body is `{\"error\": {type, code, message, param, request_id}}`):",
    "",
    "| Status | `type` | `code` | When |",
    "| --- | --- | --- | --- |",
    ...rows.map((row) => `| ${row.status} | ${row.type === "" ? "" : `\`${row.type}\``} | ${row.codes} | ${row.when.replaceAll("|", "\\|")} |`)
  ].join("\n")

/**
 * Ends every operation's description with the table of the errors it can answer: each status, its
 * `type`, its codes and when it happens, read from the error schemas the operation declares, so the
 * table cannot drift from what the service sends. A status shared by several errors gets a response
 * description naming each of them, not only the first.
 */
export const withErrorTables = (spec: Json): Json => {
  for (const operation of operationsIn(spec.paths)) {
    const rows = Object.entries<Json>(operation.responses ?? {})
      .filter(([status]) => Number(status) >= 400)
      .flatMap(([status, response]) => {
        const found = rowsOf(spec, status, response)
        if (found.length > 1) response.description = found.map((row) => row.when).join(". Or: ")
        return found
      })
    if (rows.length === 0) continue
    operation.description = [operation.description, tableOf(rows)].filter((part) => part !== undefined).join("\n\n")
  }
  return spec
}
