/** The front door of @orchestrator/dashboard: everything another package may use. */
export { bundleDashboard } from "./DashboardBundle.js"
export { DashboardPagesLive } from "./DashboardPages.js"
