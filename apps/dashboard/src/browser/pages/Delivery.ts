import type { PageContext } from "../Context.js"
import { h } from "../Dom.js"

export const deliveryPage = async (_context: PageContext, _id: string) => h("p", {}, "Coming soon")
