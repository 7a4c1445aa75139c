import { Schema } from "effect"

/**
 * A field with what it means for the API reference. The description sits on the property, not on
 * the schema, so a shared schema with an identifier (`Amount`, `Payment`) keeps one definition in the
 * document and each field that uses it says what it is for.
 */
export const field = <S extends Schema.Schema.All>(schema: S, description: string) => Schema.propertySignature(schema).annotations({ description })

/** An optional field with its description. */
export const optionalField = <S extends Schema.Schema.All>(schema: S, description: string) => Schema.optional(schema).annotations({ description })
