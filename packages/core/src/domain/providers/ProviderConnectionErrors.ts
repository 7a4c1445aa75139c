import { echoed } from "../EchoedText.js"
import { type FailureAnswer, NotFound, ServiceFailure } from "../Failure.js"

export class ProviderConnectionNotFound extends NotFound("ProviderConnectionNotFound", "provider connection") {}

/** Another connection of the organization, in this mode, has this name (deleted ones keep theirs). */
export class ConnectionNameTaken extends ServiceFailure("ConnectionNameTaken", {
  kind: "conflict",
  codes: ["connection_name_taken"],
  description: "Another connection of this mode has this name (deleted connections keep theirs)"
})<{ readonly name: string }> {
  get answer(): FailureAnswer {
    return { message: `A connection named '${echoed(this.name)}' exists already.`, param: "name" }
  }
}

/** The connection cannot be made as asked: an unknown type, settings or credentials it does not take. */
export class ConnectionInvalid extends ServiceFailure("ConnectionInvalid", {
  kind: "unprocessable",
  codes: ["connection_invalid"],
  description: "An unknown connection type, or settings or credentials this type does not take"
})<{
  readonly param: string
  readonly reason: string
}> {
  get answer(): FailureAnswer {
    return { message: `Invalid ${this.param}: ${this.reason}.`, param: this.param }
  }
}

/** The default provider cannot be deleted or disabled: choose another default first. */
export class DefaultProviderInUse extends ServiceFailure("DefaultProviderInUse", {
  kind: "conflict",
  codes: ["default_provider_in_use"],
  description: "The default provider cannot be deleted or disabled; choose another default first"
})<{ readonly name: string }> {
  get answer(): FailureAnswer {
    return { message: `'${echoed(this.name)}' is the default provider; choose another default (PATCH /v1/organization) first.` }
  }
}
