import { Option, Schema, SchemaAST } from "effect"

/**
 * The description goes on the property, and also on the schema when that schema has no identifier:
 * a struct with a transformed field (a default) is documented from its encoded side, which keeps the
 * schema's annotations but not the property's. A schema with an identifier (`Amount`, `Payment`) is
 * left as it is, so the document keeps one definition of it, and so is a refinement, whose description
 * is what a refused value's error message says it must be.
 */
const describedSchema = <S extends Schema.Schema.All>(schema: S, description: string): S =>
  Option.isSome(SchemaAST.getIdentifierAnnotation(schema.ast)) || SchemaAST.isRefinement(schema.ast)
    ? schema
    : schema.annotations({ description }) as S

/** A field with what it means for the API reference. */
export const field = <S extends Schema.Schema.All>(schema: S, description: string) =>
  Schema.propertySignature(describedSchema(schema, description)).annotations({ description })

/** An optional field with its description. */
export const optionalField = <S extends Schema.Schema.All>(schema: S, description: string) =>
  Schema.optional(describedSchema(schema, description)).annotations({ description })
