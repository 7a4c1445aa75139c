/** Which secret of a connection a ciphertext holds; bound into the encryption, so they cannot be swapped. */
export type SecretKind = "credentials" | "webhook_secret"
