/**
 * Where the dashboard is: the part of the URL after `#`, e.g. `#/payments?status=failed`. It never
 * holds the API key; it holds only what a colleague may see in a shared link.
 */
export interface Location {
  readonly path: ReadonlyArray<string>
  readonly query: URLSearchParams
}

export const currentLocation = (): Location => {
  const hash = location.hash.replace(/^#\/?/, "")
  const [path = "", query = ""] = hash.split("?", 2)
  return { path: path.split("/").filter((part) => part !== "").map(decodeURIComponent), query: new URLSearchParams(query) }
}

/** The hash of a page, with only the query parameters that have a value. */
export const href = (path: string, query: Record<string, string | undefined> = {}) => {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== "") params.set(name, value)
  const search = params.toString()
  return `#/${path}${search === "" ? "" : `?${search}`}`
}

export const navigate = (target: string) => {
  if (location.hash === target) window.dispatchEvent(new HashChangeEvent("hashchange"))
  else location.hash = target
}
