import { h } from "./Dom.js"
import { href, type Location, navigate } from "./Router.js"

/** One filter of a list: a choice among the API's values, or free text such as an id. */
export type Filter =
  | { readonly name: string; readonly label: string; readonly choices: ReadonlyArray<string> }
  | { readonly name: string; readonly label: string; readonly choices?: undefined }

/** The filters the URL holds, by name; absent or empty ones are left out. */
export const filtersOf = (location: Location, filters: ReadonlyArray<Filter>): Record<string, string | undefined> =>
  Object.fromEntries(filters.map((filter) => {
    const value = location.query.get(filter.name)?.trim() ?? ""
    return [filter.name, value === "" ? undefined : value]
  }))

/** A search form over `filters`; submitting it puts them in the URL of `section` (first page). */
export const filterForm = (
  section: string,
  label: string,
  filters: ReadonlyArray<Filter>,
  values: Record<string, string | undefined>
) => {
  const form = h(
    "form",
    { class: "filters", role: "search", "aria-label": label },
    filters.map((filter) =>
      h(
        "label",
        {},
        filter.label,
        filter.choices === undefined
          ? h("input", { id: `filter-${filter.name}`, name: filter.name, value: values[filter.name] ?? "", autocomplete: "off" })
          : h(
            "select",
            { id: `filter-${filter.name}`, name: filter.name },
            h("option", { value: "" }, "any"),
            filter.choices.map((value) => h("option", { value, selected: value === values[filter.name] }, value.replaceAll("_", " ")))
          )
      )
    ),
    h("button", { type: "submit" }, "Filter"),
    h("a", { href: href(section), class: "button secondary" }, "Clear")
  )
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    const data = new FormData(form as HTMLFormElement)
    navigate(href(section, Object.fromEntries(filters.map((filter) => [filter.name, String(data.get(filter.name) ?? "").trim()]))))
  })
  return form
}

/** First page / next page links; the cursor is the last id of the page on screen, as the API gives it. */
export const paging = (
  section: string,
  values: Record<string, string | undefined>,
  after: string | undefined,
  nextCursor: string | null
) =>
  h(
    "nav",
    { class: "paging", "aria-label": "Pages" },
    after === undefined ? null : h("a", { href: href(section, values), class: "button secondary" }, "First page"),
    nextCursor === null
      ? null
      : h("a", { href: href(section, { ...values, starting_after: nextCursor }), class: "button", id: "next-page" }, "Next page")
  )

/** A label and its value in a `dl.facts`. */
export const field = (label: string, value: Node | string) => [h("dt", {}, label), h("dd", {}, value)]

/** A link to one object's page in the dashboard, showing its id. */
export const idLink = (path: string, id: string) => h("a", { href: href(`${path}/${id}`), class: "mono" }, id)
