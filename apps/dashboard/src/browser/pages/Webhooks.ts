import type { PageContext } from "../Context.js"
import { h } from "../Dom.js"

export const webhooksPage = async (_context: PageContext, ..._rest: Array<unknown>) => h("p", {}, "Coming soon")
