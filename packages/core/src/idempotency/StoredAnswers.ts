import { Effect } from "effect"
import type { Tenant } from "../domain/Tenant.js"
import { openSecret, sealSecret } from "../tenancy/SealedSecrets.js"
import type { StoredResponse } from "./IdempotencyKey.js"

/** What of a request decides how its answer is kept. */
interface AnsweredRequest {
  readonly tenant: Tenant
  readonly key: string
  /** The answer carries a secret shown once: stored encrypted. */
  readonly sealResponse?: boolean
  readonly requestId?: string
}

const SEALED = "sealed:"

/**
 * A stored body may start with the request that first got it, `request:<id>` and a newline, before
 * the body itself (sealed or not); bodies stored before ids were kept have none.
 */
const FIRST_REQUEST = /^request:([^\n]*)\n/

/** An answer as its key keeps it (`stored`), and a kept answer as a replay gives it (`replayed`). */
export const storedAnswers = (credentialEncryption: CryptoKey) => {
  const ownerOf = ({ key, tenant }: AnsweredRequest) => `idempotency/${tenant.organizationId}/${tenant.livemode ? "live" : "test"}/${key}`

  const stored = (request: AnsweredRequest, response: StoredResponse) =>
    Effect.map(
      request.sealResponse === true
        ? Effect.map(sealSecret(credentialEncryption, ownerOf(request), response.body), (sealed) => SEALED + sealed)
        : Effect.succeed(response.body),
      (body): StoredResponse => ({ status: response.status, body: request.requestId === undefined ? body : `request:${request.requestId}\n${body}` })
    )

  const replayed = (request: AnsweredRequest, response: StoredResponse) => {
    const first = FIRST_REQUEST.exec(response.body)
    const body = first === null ? response.body : response.body.slice(first[0].length)
    const originalRequestId = first === null ? {} : { originalRequestId: first[1]! }
    return body.startsWith(SEALED)
      ? openSecret(credentialEncryption, ownerOf(request), body.slice(SEALED.length)).pipe(
        Effect.map((opened) => ({ response: { status: response.status, body: opened }, replayed: true, ...originalRequestId })),
        Effect.orDieWith(() => new Error("a stored idempotent response does not open with this key material"))
      )
      : Effect.succeed({ response: { status: response.status, body }, replayed: true, ...originalRequestId })
  }

  return { stored, replayed }
}
