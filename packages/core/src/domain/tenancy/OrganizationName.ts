import { Either } from "effect"
import { type FailureAnswer, ServiceFailure } from "../Failure.js"

export const ORGANIZATION_NAME_MAX = 100

/** The name breaks the rules below; `reason` says which, in words an operator reads on one line. */
export class OrganizationNameInvalid extends ServiceFailure("OrganizationNameInvalid", {
  kind: "invalid",
  codes: ["organization_name_invalid"],
  description: "An organization name is 1 to 100 characters without control characters"
})<{ readonly reason: string }> {
  get answer(): FailureAnswer {
    return { message: `invalid organization name: ${this.reason}`, param: "name" }
  }
}

/** Another organization has this name already (names are unique: operators pick organizations by them). */
export class OrganizationNameTaken extends ServiceFailure("OrganizationNameTaken", {
  kind: "conflict",
  codes: ["organization_name_taken"],
  description: "Another organization has this name"
})<{ readonly name: string }> {
  get answer(): FailureAnswer {
    // JSON quoting: the name is shown as typed, on one line, whatever it holds.
    return { message: `an organization named ${JSON.stringify(this.name)} already exists`, param: "name" }
  }
}

// C0 and C1 controls and DEL: they reorder or hide text in a terminal, a log line or the dashboard.
// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/
// Half of a UTF-16 pair, alone: not text at all, and PostgreSQL refuses it.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/**
 * An organization's name as it is kept: trimmed, 1 to 100 characters (counted as the user sees them,
 * by code point), no control characters. Wherever a name is set, it goes through here.
 */
export const organizationName = (raw: string): Either.Either<string, OrganizationNameInvalid> => {
  const name = raw.trim()
  const length = [...name].length
  if (length === 0) return Either.left(new OrganizationNameInvalid({ reason: "the name is empty" }))
  if (length > ORGANIZATION_NAME_MAX) {
    return Either.left(
      new OrganizationNameInvalid({ reason: `the name has ${length} characters, at most ${ORGANIZATION_NAME_MAX} are allowed` })
    )
  }
  if (CONTROL.test(name) || LONE_SURROGATE.test(name)) {
    return Either.left(new OrganizationNameInvalid({ reason: "the name contains a control character" }))
  }
  return Either.right(name)
}
