import { Data } from "effect"

export class ProviderConnectionNotFound extends Data.TaggedError("ProviderConnectionNotFound")<{ readonly id: string }> {}

/** Another connection of the organization, in this mode, has this name (deleted ones keep theirs). */
export class ConnectionNameTaken extends Data.TaggedError("ConnectionNameTaken")<{ readonly name: string }> {}

/** The connection cannot be made as asked: an unknown type, settings or credentials it does not take. */
export class ConnectionInvalid extends Data.TaggedError("ConnectionInvalid")<{
  readonly param: string
  readonly reason: string
}> {}

/** The default provider cannot be deleted or disabled: choose another default first. */
export class DefaultProviderInUse extends Data.TaggedError("DefaultProviderInUse")<{ readonly name: string }> {}
