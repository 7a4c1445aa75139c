import { Schema, SchemaAST } from "effect"

/**
 * The wire form of an immutable record, made once per instance. A payment moved to `succeeded` is
 * written as its row, inside its event and as the response, all from the one instance the move made;
 * encoding it (schema work, then `JSON.stringify`) is the dearest part of each. Records are
 * `Schema.Class` instances with readonly fields, so an instance's encoding cannot change. What
 * `encode` returns is shared: read it, never change it.
 */
export interface EncodedOnce<A, I> {
  readonly encode: (value: A) => I
  readonly json: (value: A) => string
}

/** The type side of a schema's AST: a class's declaration, however a schema annotates the class. */
const typeSideOf = (ast: SchemaAST.AST) => (SchemaAST.isTransformation(ast) ? ast.to : ast)

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each class has its own encoded type
const byTypeSide = new WeakMap<SchemaAST.AST, EncodedOnce<any, any>>()

/** Makes `schema`'s values (a class's instances) encoded once each, wherever they are encoded through this module. */
export const encodedOnce = <A extends object, I>(schema: Schema.Schema<A, I>): EncodedOnce<A, I> => {
  const encodeSync = Schema.encodeSync(schema)
  const encodings = new WeakMap<A, I>()
  const texts = new WeakMap<A, string>()
  const encode = (value: A): I => {
    let encoded = encodings.get(value)
    if (encoded === undefined) {
      encoded = encodeSync(value)
      encodings.set(value, encoded)
    }
    return encoded
  }
  const json = (value: A): string => {
    let text = texts.get(value)
    if (text === undefined) {
      text = JSON.stringify(encode(value))
      texts.set(value, text)
    }
    return text
  }
  const once = { encode, json }
  byTypeSide.set(typeSideOf(schema.ast), once)
  return once
}

/** The once-made encoding of a schema's values, when its class is `encodedOnce` (e.g. an endpoint's success). */
export const encodedOnceOf = (ast: SchemaAST.AST): EncodedOnce<unknown, unknown> | undefined => byTypeSide.get(typeSideOf(ast))

/** The once-made encoding of `value`'s class, when it is `encodedOnce`. */
export const encodedOnceOfValue = (value: unknown): EncodedOnce<unknown, unknown> | undefined => {
  if (typeof value !== "object" || value === null) return undefined
  // A `Schema.Class` instance's constructor holds its schema's AST; a plain object's holds none.
  const ast: unknown = (value.constructor as { readonly ast?: unknown } | undefined)?.ast
  return typeof ast === "object" && ast !== null && SchemaAST.isTransformation(ast as SchemaAST.AST)
    ? encodedOnceOf(ast as SchemaAST.AST)
    : undefined
}
