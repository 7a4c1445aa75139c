import * as fs from "node:fs"

/** A file of the repository, by its path from the root. */
export const repositoryFile = (relative: string) => fs.readFileSync(new URL(`../../../../${relative}`, import.meta.url), "utf8")

/** Every query of the dashboard in the repository (`ops/grafana/orchestrator.json`). */
export const dashboardQueries = (): ReadonlyArray<string> => {
  const dashboard = JSON.parse(repositoryFile("ops/grafana/orchestrator.json")) as { panels: Array<{ targets?: Array<{ expr: string }> }> }
  return dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr))
}
