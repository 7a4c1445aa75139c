import { Data, Effect, Redacted, type Scope } from "effect"
import { createRequire } from "node:module"
import type * as Pkcs11 from "pkcs11js"

/** Where the KEKs live in an HSM (or SoftHSM, or a cloud KMS's PKCS#11 library), and how to log in to it. */
export interface Pkcs11Settings {
  /** The vendor's PKCS#11 library (a `.so`), e.g. /usr/lib/softhsm/libsofthsm2.so. */
  readonly module: string
  /** The label the token was initialized with. */
  readonly token: string
  /** The token's user PIN. */
  readonly pin: Redacted.Redacted
  /** What the KEKs' labels start with, the version following it: `orchestrator-kek-1`, `orchestrator-kek-2`, … */
  readonly keyLabel?: string | undefined
}

export const DEFAULT_KEK_LABEL = "orchestrator-kek-"

/** The token cannot serve the vault: said in one line, never with the PIN. */
export class Pkcs11Unavailable extends Data.TaggedError("Pkcs11Unavailable")<{ readonly message: string }> {}

/** A logged-in session on the token and its library's functions (this process's one session). */
export interface Pkcs11Session {
  readonly library: typeof Pkcs11
  readonly pkcs11: Pkcs11.PKCS11
  readonly session: Pkcs11.Handle
  readonly token: string
}

/** A KEK in the token: its version (from its label) and its handle; its bytes stay in the token. */
export interface TokenKek {
  readonly version: number
  readonly handle: Pkcs11.Handle
  readonly extractable: boolean
}

// Loaded only when a PKCS#11 module is configured: a native addon no other start needs.
const loadLibrary = (): typeof Pkcs11 => createRequire(import.meta.url)("pkcs11js") as typeof Pkcs11

const reasonOf = (library: typeof Pkcs11, error: unknown): string => {
  if (error instanceof library.Pkcs11Error) {
    if (error.code === library.CKR_PIN_INCORRECT) return "the PIN is wrong"
    if (error.code === library.CKR_PIN_LOCKED) return "the PIN is locked"
    return error.message
  }
  return error instanceof Error ? error.message : String(error)
}

const slotOf = (pkcs11: Pkcs11.PKCS11, token: string): Pkcs11.Handle | undefined =>
  pkcs11.C_GetSlotList(true).find((slot) => pkcs11.C_GetTokenInfo(slot).label.trim() === token)

/**
 * Opens one session on the token labelled `settings.token` and logs in as its user, for the scope:
 * logged out, closed and the library finalized when the scope closes. `readWrite` only to make keys.
 */
export const openTokenSession = (
  settings: Pkcs11Settings,
  options: { readonly readWrite?: boolean } = {}
): Effect.Effect<Pkcs11Session, Pkcs11Unavailable, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.try({
      try: () => {
        const library = loadLibrary()
        const pkcs11 = new library.PKCS11()
        const step = <A>(what: string, run: () => A): A => {
          try {
            return run()
          } catch (error) {
            if (what !== "load") pkcs11.C_Finalize()
            throw new Pkcs11Unavailable({ message: `PKCS#11 ${what}: ${reasonOf(library, error)}` })
          }
        }
        step("load", () => {
          pkcs11.load(settings.module)
          pkcs11.C_Initialize()
        })
        const slot = step("token", () => slotOf(pkcs11, settings.token))
        if (slot === undefined) {
          pkcs11.C_Finalize()
          throw new Pkcs11Unavailable({ message: `PKCS#11: no token labelled "${settings.token}" in ${settings.module}` })
        }
        const flags = library.CKF_SERIAL_SESSION | (options.readWrite === true ? library.CKF_RW_SESSION : 0)
        const session = step("session", () => pkcs11.C_OpenSession(slot, flags))
        step(`login to token "${settings.token}"`, () => pkcs11.C_Login(session, library.CKU_USER, Redacted.value(settings.pin)))
        return { library, pkcs11, session, token: settings.token }
      },
      catch: (error) =>
        error instanceof Pkcs11Unavailable
          ? error
          : new Pkcs11Unavailable({ message: `PKCS#11 module ${settings.module}: ${error instanceof Error ? error.message : String(error)}` })
    }),
    ({ pkcs11, session }) =>
      Effect.sync(() => {
        // Each step on its own: a token gone since must not keep the library from being finalized.
        for (const step of [() => pkcs11.C_Logout(session), () => pkcs11.C_CloseSession(session), () => pkcs11.C_Finalize()]) {
          try {
            step()
          } catch {
            // Nothing left to release.
          }
        }
      })
  )

const versionPattern = (prefix: string) => new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}([1-9][0-9]{0,5})$`)

/** The token's AES secret keys whose label is the prefix and a version, by version. */
export const findKeks = ({ library, pkcs11, session }: Pkcs11Session, prefix: string): ReadonlyArray<TokenKek> => {
  pkcs11.C_FindObjectsInit(session, [
    { type: library.CKA_CLASS, value: library.CKO_SECRET_KEY },
    { type: library.CKA_KEY_TYPE, value: library.CKK_AES }
  ])
  const handles: Array<Pkcs11.Handle> = []
  try {
    for (let batch = pkcs11.C_FindObjects(session, 100); batch.length > 0; batch = pkcs11.C_FindObjects(session, 100)) handles.push(...batch)
  } finally {
    pkcs11.C_FindObjectsFinal(session)
  }
  const pattern = versionPattern(prefix)
  return handles.flatMap((handle) => {
    const [label, extractable] = pkcs11.C_GetAttributeValue(session, handle, [{ type: library.CKA_LABEL }, { type: library.CKA_EXTRACTABLE }])
    const match = pattern.exec(label?.value?.toString("utf8") ?? "")
    return match === null ? [] : [{ version: Number(match[1]), handle, extractable: extractable?.value?.[0] === 1 }]
  }).sort((a, b) => a.version - b.version)
}

/**
 * Makes the KEK of `version` in the token: AES-256, generated inside it, sensitive and not
 * extractable (its bytes never leave the token), for encrypting and decrypting only.
 */
export const generateKek = (settings: Pkcs11Settings, version: number): Effect.Effect<string, Pkcs11Unavailable> =>
  Effect.scoped(Effect.flatMap(openTokenSession(settings, { readWrite: true }), (token) =>
    Effect.try({
      try: () => {
        const prefix = settings.keyLabel ?? DEFAULT_KEK_LABEL
        const label = `${prefix}${version}`
        if (!Number.isInteger(version) || version < 1 || version > 999999) throw new Error("the version is a whole number from 1 to 999999")
        if (findKeks(token, prefix).some((kek) => kek.version === version)) throw new Error(`the token already has a key labelled ${label}`)
        const { library, pkcs11, session } = token
        pkcs11.C_GenerateKey(session, { mechanism: library.CKM_AES_KEY_GEN }, [
          { type: library.CKA_CLASS, value: library.CKO_SECRET_KEY },
          { type: library.CKA_KEY_TYPE, value: library.CKK_AES },
          { type: library.CKA_VALUE_LEN, value: 32 },
          { type: library.CKA_LABEL, value: label },
          { type: library.CKA_TOKEN, value: true },
          { type: library.CKA_PRIVATE, value: true },
          { type: library.CKA_SENSITIVE, value: true },
          { type: library.CKA_EXTRACTABLE, value: false },
          { type: library.CKA_ENCRYPT, value: true },
          { type: library.CKA_DECRYPT, value: true },
          { type: library.CKA_WRAP, value: false },
          { type: library.CKA_UNWRAP, value: false }
        ])
        return label
      },
      catch: (error) => new Pkcs11Unavailable({ message: `PKCS#11 key generation: ${reasonOf(token.library, error)}` })
    })))
