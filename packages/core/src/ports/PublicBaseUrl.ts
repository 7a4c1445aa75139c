import { Context } from "effect"

/** The public address of this service, for the URLs handed to PSPs and customers. */
export class PublicBaseUrl extends Context.Tag("core/PublicBaseUrl")<PublicBaseUrl, string>() {}
