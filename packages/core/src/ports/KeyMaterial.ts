import { Context, Effect, Layer } from "effect"

/**
 * Keys derived from the one master secret (`ORCHESTRATOR_ENCRYPTION_KEY`) with HKDF:
 * an HMAC key that hashes API keys, an AES-GCM key that encrypts PSP credentials at rest, an HMAC key
 * that signs the return URLs handed to PSPs, and an HMAC key that makes each checkout session's client
 * secret from the session's id (one key per purpose, so none can stand in for another). The return
 * URLs' key is kept as its raw bytes (the same bytes Web Crypto's HMAC key of that purpose holds): it
 * signs once per payment, synchronously (`hmacSha256`), where Web Crypto would cost a thread hop.
 */
export class KeyMaterial extends Context.Tag("core/KeyMaterial")<KeyMaterial, {
  readonly apiKeyHashing: CryptoKey
  readonly credentialEncryption: CryptoKey
  readonly returnSigning: Uint8Array
  readonly clientSecretDerivation: CryptoKey
}>() {
  static readonly fromMasterSecret = (secret: Uint8Array<ArrayBuffer>): Layer.Layer<KeyMaterial> =>
    Layer.effect(KeyMaterial, Effect.promise(() => deriveKeyMaterial(secret)))
}

const encoder = new TextEncoder()

const deriveKeyMaterial = async (secret: Uint8Array<ArrayBuffer>) => {
  const master = await crypto.subtle.importKey("raw", secret, "HKDF", false, ["deriveKey", "deriveBits"])
  const hkdf = (info: string): HkdfParams => ({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(32), info: encoder.encode(info) })
  const derive = (info: string, algorithm: HmacImportParams | AesKeyGenParams, usages: Array<KeyUsage>) =>
    crypto.subtle.deriveKey(hkdf(info), master, algorithm, false, usages)
  return {
    apiKeyHashing: await derive("orchestrator api key hashing v1", { name: "HMAC", hash: "SHA-256", length: 256 }, [
      "sign"
    ]),
    credentialEncryption: await derive("orchestrator credential encryption v1", { name: "AES-GCM", length: 256 }, [
      "encrypt",
      "decrypt"
    ]),
    // What `deriveKey` would make an HMAC key of, 256 bits, as bytes.
    returnSigning: new Uint8Array(await crypto.subtle.deriveBits(hkdf("orchestrator payment return v1"), master, 256)),
    clientSecretDerivation: await derive(
      "orchestrator checkout client secret v1",
      { name: "HMAC", hash: "SHA-256", length: 256 },
      ["sign"]
    )
  }
}
