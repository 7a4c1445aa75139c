/**
 * Stripe's request bodies: `application/x-www-form-urlencoded` with bracket nesting, as its SDKs
 * send them (`metadata[reference]=att_1`, `expand[0]=latest_charge`, `a[b][c]=x`).
 */
export type FormValue = string | number | boolean | null | undefined | ReadonlyArray<FormValue> | FormObject
export interface FormObject {
  readonly [key: string]: FormValue
}

const pairs = (prefix: string, value: FormValue): ReadonlyArray<readonly [string, string]> => {
  if (value === undefined || value === null) return []
  if (Array.isArray(value)) return value.flatMap((item, index) => pairs(`${prefix}[${index}]`, item))
  if (typeof value === "object") {
    return Object.entries(value as FormObject).flatMap(([key, item]) => pairs(`${prefix}[${key}]`, item))
  }
  return [[prefix, String(value)]]
}

/** Encodes `body`; `undefined` and `null` fields are left out. */
export const encodeForm = (body: FormObject): string =>
  Object.entries(body)
    .flatMap(([key, value]) => pairs(key, value))
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join("&")
