import type { ExampleRequest, ExampleResponse } from "@orchestrator/api"
import { Effect } from "effect"
import { raw } from "../support/TestServer.js"

/** The address the stored examples show, the one `pnpm start` serves on. */
export const DOCUMENTED_BASE_URL = "http://localhost:3000"

/** The keys a recording or a replay sends with: `auth` in an example picks one. */
export interface Keys {
  readonly test: string
  readonly live: string
}

/** Response headers worth keeping in an example: where a redirect goes, and that an answer was replayed. */
const KEPT_HEADERS = ["location", "idempotent-replayed", "retry-after"]

export const urlOf = (baseUrl: string, request: ExampleRequest) => {
  const query = new URLSearchParams(request.query ?? {}).toString()
  return `${baseUrl}${request.path}${query === "" ? "" : `?${query}`}`
}

/** A form example as `fetch` sends it (it writes the multipart boundary itself). */
const formData = (form: NonNullable<ExampleRequest["form"]>) => {
  const data = new FormData()
  for (const [name, value] of Object.entries(form)) {
    if (typeof value === "string") data.append(name, value)
    else data.append(name, new Blob([value.text], { type: value.content_type }), value.filename)
  }
  return data
}

/** Sends one example request as it is written, with the key it names. */
export const send = (baseUrl: string, keys: Keys, request: ExampleRequest, body?: string) =>
  Effect.map(
    raw(urlOf(baseUrl, request), {
      method: request.method,
      headers: {
        ...(request.auth === "none" ? {} : { authorization: `Bearer ${keys[request.auth ?? "test"]}` }),
        ...(request.body === undefined && body === undefined ? {} : { "content-type": "application/json" }),
        ...request.headers
      },
      ...(body !== undefined
        ? { body }
        : request.form !== undefined
        ? { body: formData(request.form) }
        : request.body === undefined
        ? {}
        : { body: JSON.stringify(request.body) })
    }),
    (response): ExampleResponse => {
      const headers = Object.fromEntries(KEPT_HEADERS.flatMap((name) => {
        const value = response.headers.get(name)
        return value === null ? [] : [[name, value]]
      }))
      return {
        status: response.status,
        ...(Object.keys(headers).length === 0 ? {} : { headers }),
        ...(response.json === undefined ? {} : { body: response.json })
      }
    }
  )

/** A body one byte over the service's 1 MiB limit, for the 413 example (stored without it). */
export const oversizedBody = () => JSON.stringify({ description: "x".repeat(1024 * 1024) })

/** Every string in `value` with `from` replaced by `to`: the recording's address by the documented one. */
export const replaceInStrings = (value: unknown, from: string, to: string): unknown => {
  if (typeof value === "string") return value.split(from).join(to)
  if (Array.isArray(value)) return value.map((item) => replaceInStrings(item, from, to))
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceInStrings(item, from, to)]))
  }
  return value
}

/** Completes the sandbox's 3D Secure challenge at `url`; the redirect it answers carries the return's token. */
export const completeChallenge = (url: string) =>
  Effect.flatMap(raw(`${url}/complete`, { method: "POST" }), (response) => {
    const location = response.headers.get("location")
    const token = location === null ? null : new URL(location).searchParams.get("token")
    return token === null
      ? Effect.dieMessage(`the challenge at ${url} answered ${response.status} without a return token`)
      : Effect.succeed(token)
  })
