import { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import { ECHO_LIMIT, echoed } from "@orchestrator/core"
import { Cause, Effect, Either, type ParseResult, Schema, SchemaAST as AST } from "effect"

/** What a 400 for a request that does not match its schema says: the first problem, in the API's words. */
export interface DecodeErrorDetails {
  readonly code: "parameter_missing" | "parameter_unknown" | "parameter_invalid" | "parameter_invalid_length"
  readonly param: string | null
  readonly message: string
}

/**
 * The framework keeps only a flattened rendering of a request's schema failure, worded from the
 * schemas' internal names ("Expected CreatePayment") and repeating the whole offending value. The
 * issue tree itself (schemas and values) is kept beside each decode error, so the answer can say in
 * the API's own terms what was expected.
 */
const issueOf = new WeakMap<HttpApiDecodeError, ParseResult.ParseIssue>()
const fromParseError = HttpApiDecodeError.fromParseError
HttpApiDecodeError.fromParseError = (error) => Effect.tap(fromParseError(error), (decodeError) => Effect.sync(() => issueOf.set(decodeError, error.issue)))

/** The first problem of an issue tree: where it is, and what went wrong there. */
type Leaf =
  | { readonly _tag: "Missing"; readonly path: ReadonlyArray<PropertyKey> }
  | { readonly _tag: "Unexpected"; readonly path: ReadonlyArray<PropertyKey> }
  | { readonly _tag: "Invalid"; readonly path: ReadonlyArray<PropertyKey>; readonly issue: ParseResult.ParseIssue; readonly ofKey: boolean }

const issuesOf = (issue: ParseResult.Composite): ReadonlyArray<ParseResult.ParseIssue> =>
  Array.isArray(issue.issues) ? issue.issues : [issue.issues as ParseResult.ParseIssue]

/** A key a record refuses arrives as "unexpected"; the record's key schema says what was wrong with it. */
const keyIssue = (ast: AST.AST, key: PropertyKey): ParseResult.ParseIssue | undefined => {
  if (ast._tag !== "TypeLiteral" || ast.indexSignatures.length === 0) return undefined
  if (ast.propertySignatures.some((property) => property.name === key)) return undefined
  for (const signature of ast.indexSignatures) {
    const checked = Schema.validateEither(Schema.make(signature.parameter))(key)
    if (Either.isLeft(checked)) return checked.left.issue
  }
  return undefined
}

const isAbsent = (ast: AST.AST) => ast._tag === "UndefinedKeyword" || ast._tag === "VoidKeyword"

const firstLeaf = (issue: ParseResult.ParseIssue, path: ReadonlyArray<PropertyKey>): Leaf => {
  switch (issue._tag) {
    case "Pointer":
      return firstLeaf(issue.issue, path.concat(issue.path))
    case "Missing":
      return { _tag: "Missing", path }
    case "Unexpected":
      return { _tag: "Unexpected", path }
    case "Refinement":
    case "Transformation":
      return firstLeaf(issue.issue, path)
    case "Composite": {
      // An optional field's schema is its type or `undefined`; a value sent was never meant as the latter.
      const issues = issuesOf(issue).filter((member) => !(member._tag === "Type" && isAbsent(member.ast)))
      if (issue.ast._tag === "Union" && issues.length > 1) {
        // Of the alternatives, the one that went deepest is what the client meant; when none got
        // past this value, it matched none of them.
        const leaves = issues.map((member) => firstLeaf(member, path))
        const deepest = leaves.reduce((best, leaf) => (leaf.path.length > best.path.length ? leaf : best))
        return deepest.path.length > path.length ? deepest : { _tag: "Invalid", path, issue, ofKey: false }
      }
      const first = issues[0]
      if (first === undefined) return { _tag: "Invalid", path, issue, ofKey: false }
      if (first._tag === "Pointer" && first.issue._tag === "Unexpected" && !Array.isArray(first.path)) {
        const refused = keyIssue(issue.ast, first.path as PropertyKey)
        if (refused !== undefined) return { _tag: "Invalid", path, issue: refused, ofKey: true }
      }
      return firstLeaf(first, path)
    }
    case "Type":
    case "Forbidden":
      return { _tag: "Invalid", path, issue, ofKey: false }
  }
}

/** The deepest issue on the way to the first failure that carries no path of its own. */
const innermost = (issue: ParseResult.ParseIssue): ParseResult.ParseIssue =>
  issue._tag === "Refinement" || issue._tag === "Transformation"
    ? innermost(issue.issue)
    : issue._tag === "Composite" && issuesOf(issue).length === 1 && issue.ast._tag !== "Union"
    ? innermost(issuesOf(issue)[0]!)
    : issue

const quote = (value: unknown): string => (typeof value === "string" ? JSON.stringify(echoed(value)) : echoed(String(value)))

const LITERALS_LISTED = 12

/** What a schema accepts, as a client would say it: never a schema's internal name. */
const describe = (ast: AST.AST): string => {
  switch (ast._tag) {
    case "Literal":
      return quote(ast.literal)
    case "StringKeyword":
    case "TemplateLiteral":
      return "a string"
    case "NumberKeyword":
      return "a number"
    case "BooleanKeyword":
      return "true or false"
    case "BigIntKeyword":
      return "a whole number"
    case "TypeLiteral":
    case "ObjectKeyword":
      return "an object"
    case "TupleType":
      return "an array"
    case "Enums":
      return oneOf(ast.enums.map(([, value]) => value))
    case "Union": {
      const members = ast.types.filter((member) => !isAbsent(member))
      if (members.every((member) => member._tag === "Literal")) {
        return oneOf(members.map((member) => (member as AST.Literal).literal))
      }
      return [...new Set(members.map(describe))].join(" or ")
    }
    case "Refinement":
      return refinementPhrase(ast) ?? describe(ast.from)
    case "Transformation":
      return describe(ast.from)
    case "Suspend":
      return describe(ast.f())
    default:
      return "a valid value"
  }
}

const oneOf = (values: ReadonlyArray<unknown>): string =>
  values.length === 1
    ? quote(values[0])
    : values.length <= LITERALS_LISTED
    ? `one of ${values.map(quote).join(", ")}`
    : `one of ${values.slice(0, LITERALS_LISTED).map(quote).join(", ")}, … (see the API reference)`

const lengthBoundsOf = (ast: AST.AST) => {
  if (ast._tag !== "Refinement") return undefined
  const bounds = AST.getJSONSchemaAnnotation(ast).pipe((option) => (option._tag === "Some" ? option.value : {})) as Record<
    string,
    unknown
  >
  const number = (key: string) => (typeof bounds[key] === "number" ? (bounds[key] as number) : undefined)
  const kinds = [
    { min: number("minLength"), max: number("maxLength"), unit: "character" },
    { min: number("minItems"), max: number("maxItems"), unit: "item" },
    { min: number("minProperties"), max: number("maxProperties"), unit: "key" }
  ]
  return kinds.find((kind) => kind.min !== undefined || kind.max !== undefined)
}

const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? "" : "s"}`

/** A length rule in words: "be at most 40 characters long", "have at most 50 items". */
const lengthRule = (bounds: NonNullable<ReturnType<typeof lengthBoundsOf>>): string => {
  const { max, min, unit } = bounds
  const [verb, tail] = unit === "character" ? ["be", " long"] : ["have", ""]
  return min !== undefined && max !== undefined && min === max
    ? `${verb} exactly ${plural(min, unit)}${tail}`
    : max === undefined
    ? min === 1 && unit === "character" ? "not be empty" : `${verb} at least ${plural(min!, unit)}${tail}`
    : min === undefined || min <= 1
    ? `${verb} at most ${plural(max, unit)}${tail}`
    : `${verb} between ${min} and ${plural(max, unit)}${tail}`
}

/** Effect's own checks (integer, between, lengths) describe themselves in plain words; others do not. */
const refinementPhrase = (ast: AST.Refinement): string | undefined => {
  const bounds = lengthBoundsOf(ast)
  if (bounds !== undefined) return `${bounds.unit === "character" ? "a string" : "an array"} that must ${lengthRule(bounds)}`
  if (AST.getSchemaIdAnnotation(ast)._tag === "None") return undefined
  return AST.getDescriptionAnnotation(ast).pipe((option) => (option._tag === "Some" ? option.value : undefined))
}

const kindOf = (value: unknown): string =>
  value === null
    ? "null"
    : Array.isArray(value)
    ? "an array"
    : typeof value === "object"
    ? "an object"
    : typeof value === "string"
    ? "a string"
    : typeof value === "number"
    ? "a number"
    : typeof value === "boolean"
    ? "true or false"
    : typeof value

/** A message a schema wrote itself (a filter's words), with any long value it repeats cut short. */
const ownMessage = (issue: ParseResult.ParseIssue): string | undefined => {
  if (issue._tag !== "Type" && issue._tag !== "Forbidden") return undefined
  const annotated = AST.getMessageAnnotation(issue.ast)
  let message = issue.message
  if (message === undefined && annotated._tag === "Some") {
    const written = annotated.value(issue)
    message = typeof written === "string" ? written : typeof written === "object" && "message" in written
      ? (typeof written.message === "string" ? written.message : undefined)
      : undefined
  }
  if (message === undefined) return undefined
  const actual = issue.actual
  if (typeof actual === "string" && actual.length > ECHO_LIMIT) {
    message = message.split(JSON.stringify(actual)).join(quote(actual)).split(actual).join(echoed(actual))
  }
  return message
}

/** Why a value was refused, as the end of "Invalid x: …" and whether it was its length. */
const reasonOf = (issue: ParseResult.ParseIssue): { readonly reason: string; readonly length: boolean } => {
  const leaf = innermost(issue)
  const bounds = leaf._tag === "Type" ? lengthBoundsOf(leaf.ast) : undefined
  const own = ownMessage(leaf)
  if (own !== undefined) return { reason: own, length: bounds !== undefined }
  if (leaf._tag !== "Type" && leaf._tag !== "Composite") return { reason: "is not valid", length: false }
  const ast = leaf.ast
  const actual = leaf.actual
  if (bounds !== undefined) {
    const size = typeof actual === "string" ? actual.length : Array.isArray(actual) ? actual.length : undefined
    const over = size !== undefined && bounds.max !== undefined && size > bounds.max
    return { reason: `must ${lengthRule(bounds)}${over ? ` (it has ${plural(size, bounds.unit)})` : ""}`, length: true }
  }
  if (ast._tag === "Refinement") {
    // The value has the right type but breaks a rule (an integer, a range): name the rule.
    const phrase = refinementPhrase(ast)
    return { reason: phrase === undefined ? "is not valid" : `must be ${phrase}`, length: false }
  }
  const expected = describe(ast)
  const isValueChoice = ast._tag === "Literal" || ast._tag === "Enums" ||
    (ast._tag === "Union" && ast.types.every((member) => member._tag === "Literal" || isAbsent(member)))
  const got = isValueChoice && (typeof actual === "string" || typeof actual === "number" || typeof actual === "boolean")
    ? `, not ${quote(actual)}`
    : kindOf(actual) === expected
    ? ""
    : `, not ${kindOf(actual)}`
  return { reason: `must be ${expected}${got}`, length: false }
}

const paramOf = (path: ReadonlyArray<PropertyKey>): string | null =>
  path.length === 0 ? null : path[0] === "idempotency-key" ? "Idempotency-Key" : echoed(path.map(String).join("."))

/** The first flattened issue, as the framework reported it: for decode errors made before the tree was kept. */
const fromFlattened = (error: HttpApiDecodeError): DecodeErrorDetails => {
  const issue = error.issues[0]
  const param = issue === undefined ? null : paramOf(issue.path)
  if (issue?._tag === "Missing") return { code: "parameter_missing", param, message: `Missing required parameter: ${param}.` }
  if (issue?._tag === "Unexpected") return { code: "parameter_unknown", param, message: `Received unknown parameter: ${param}.` }
  return { code: "parameter_invalid", param, message: param === null ? "The request is not valid." : `Invalid ${param}.` }
}

/** A request that does not match its schema, told as the first offending parameter and why. */
export const decodeErrorDetails = (error: HttpApiDecodeError): DecodeErrorDetails => {
  // A failure raised inside a span reaches the edge as a proxy of the instance that was failed with.
  const issue = issueOf.get(Cause.originalError(error))
  if (issue === undefined) return fromFlattened(error)
  const leaf = firstLeaf(issue, [])
  const param = paramOf(leaf.path)
  switch (leaf._tag) {
    case "Missing":
      return { code: "parameter_missing", param, message: `Missing required parameter: ${param}.` }
    case "Unexpected":
      return { code: "parameter_unknown", param, message: `Received unknown parameter: ${param}.` }
    case "Invalid": {
      const { length, reason } = reasonOf(leaf.issue)
      // A refused key cannot name itself as the parameter: the record holding it is named instead.
      const message = leaf.ofKey
        ? `Invalid ${param ?? "request body"}: each key ${reason}.`
        : param === null
        ? `The request body ${reason}.`
        : `Invalid ${param}: ${reason}.`
      return { code: length ? "parameter_invalid_length" : "parameter_invalid", param, message }
    }
  }
}
