import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { makeDashboardRoutes } from "./DashboardRoutes.js"

/** The dashboard at `/dashboard`, bundled from the workspace on first use, for the HTTP shell to mount. */
export const DashboardPagesLive = HttpApiBuilder.Router.use((router) => Effect.flatMap(makeDashboardRoutes, (routes) => router.concat(routes)))
