import { Schema } from "effect"

/** A UTF-16 surrogate without its other half: not a character, and not storable as UTF-8 or JSON. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * Any string a request may carry. PostgreSQL cannot store NUL or half a surrogate pair, so they are
 * refused here with a 400 rather than failing in the database.
 */
export const Text = Schema.String.pipe(
  Schema.filter((text) => !text.includes("\u0000") || "must not contain NUL characters"),
  Schema.filter((text) => !LONE_SURROGATE.test(text) || "must be valid Unicode (it contains half a surrogate pair)")
)

/**
 * Text from outside that we keep rather than judge (a webhook receiver's answer, a PSP's message):
 * NUL and half surrogate pairs become U+FFFD, so the database takes it as it is.
 */
export const storableText = (text: string) => text.replace(new RegExp(`\\u0000|${LONE_SURROGATE.source}`, "g"), "\uFFFD")

/** Strings accepted anywhere in a request: at most 5 000 characters. */
export const BoundedString = Text.pipe(Schema.maxLength(5000))

/** An object id in a filter or a body; anything longer than an id can be is refused. */
export const Identifier = Text.pipe(Schema.minLength(1), Schema.maxLength(255))

/**
 * An object id in a path. It is looked up as given: one longer than any id the service makes names
 * no object, so it answers 404 `resource_missing` like any other unknown id, not a 400.
 */
export const PathId = Text.pipe(Schema.minLength(1)).annotations({ description: "The object's id" })

/** An absolute http:// or https:// URL that parses. */
export const isHttpUrl = (text: string) => {
  try {
    const url = new URL(text)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

/** An absolute http(s) URL that parses, since the service will redirect customers to it. */
export const Url = BoundedString.pipe(
  Schema.filter((text) => isHttpUrl(text) || "must be an absolute http or https URL")
)
