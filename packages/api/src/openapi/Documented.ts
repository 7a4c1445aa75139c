import type { Json } from "./DocumentJson.js"
import { withErrorTables } from "./ErrorTables.js"
import { withEventCatalogue } from "./EventCatalogue.js"
import { withoutGeneratedText } from "./GeneratedText.js"
import { withSharedSchemaDescriptions } from "./SharedSchemas.js"

/**
 * What the document gains after the framework has built it: the event catalogue, each operation's
 * table of errors, no text derived from validation filters, and the descriptions of the shared
 * schemas that cannot carry their own. The order matters: the catalogue adds schemas the later steps clean.
 */
export const documented = (spec: Json): Json => withSharedSchemaDescriptions(withoutGeneratedText(withErrorTables(withEventCatalogue(spec))))
