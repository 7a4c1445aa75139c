import type { Json } from "./DocumentJson.js"
import { withErrorTables } from "./ErrorTables.js"
import { withEventCatalogue } from "./EventCatalogue.js"
import { withoutGeneratedText } from "./GeneratedText.js"

/**
 * What the document gains after the framework has built it: the event catalogue, each operation's
 * table of errors, and no text derived from validation filters. The order matters: the catalogue
 * adds schemas the last step cleans.
 */
export const documented = (spec: Json): Json => withoutGeneratedText(withErrorTables(withEventCatalogue(spec)))
