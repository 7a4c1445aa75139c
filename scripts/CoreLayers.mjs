// `pnpm check:layers`: the core's folders depend one way. domain (schemas, state machines, money, ids,
// errors) ← ports (what an adapter implements) ← features (the services) ← composition (CoreLive,
// CoreMemory); the memory adapters sit beside the features and see only domain and ports. Inside
// domain and features, the concern folders (payments, refunds, …) form no cycle either. Exits 1 and
// lists every import that breaks a rule, or the folders of a cycle with one import for each step.
import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"

const ROOT = path.resolve(process.argv[2] ?? "packages/core/src")

/** For each layer, the layers its files may import (its own included). */
const MAY_IMPORT = {
  domain: ["domain"],
  ports: ["domain", "ports"],
  features: ["domain", "ports", "features"],
  memory: ["domain", "ports", "memory"],
  composition: ["domain", "ports", "features", "memory", "composition"],
  "index.ts": ["domain", "ports", "features", "memory", "composition"]
}

const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(path.join(dir, entry.name)) : entry.name.endsWith(".ts") ? [path.join(dir, entry.name)] : []
  )

const segmentsOf = (file) => path.relative(ROOT, file).split(path.sep)
const layerOf = (file) => segmentsOf(file)[0]
/** `features/payments` for a file in a concern folder, `domain` for one at a layer's top. */
const folderOf = (file) => {
  const segments = segmentsOf(file)
  return segments.length > 2 ? `${segments[0]}/${segments[1]}` : segments[0]
}

const problems = []
const folderEdges = new Map()
for (const file of walk(ROOT)) {
  const layer = layerOf(file)
  const allowed = MAY_IMPORT[layer]
  const shown = path.relative(ROOT, file)
  if (allowed === undefined) {
    problems.push(`${shown}: outside the layers (${Object.keys(MAY_IMPORT).join(", ")})`)
    continue
  }
  const text = readFileSync(file, "utf8")
  for (const match of text.matchAll(/(?:from |import\()"(\.{1,2}\/[^"]+)\.js"/g)) {
    const target = path.resolve(path.dirname(file), match[1]) + ".ts"
    const targetLayer = layerOf(target)
    if (!allowed.includes(targetLayer)) {
      problems.push(`${shown}: a ${layer} file imports ${path.relative(ROOT, target)} (${targetLayer})`)
      continue
    }
    const [from, to] = [folderOf(file), folderOf(target)]
    if (from !== to && targetLayer === layer && (layer === "domain" || layer === "features")) {
      const edges = folderEdges.get(from) ?? new Map()
      if (!edges.has(to)) edges.set(to, `${shown} → ${path.relative(ROOT, target)}`)
      folderEdges.set(from, edges)
    }
  }
}

// Depth-first search for a cycle among the concern folders; each one found is reported once.
const state = new Map()
const stack = []
const visit = (folder) => {
  state.set(folder, "open")
  stack.push(folder)
  for (const next of (folderEdges.get(folder) ?? new Map()).keys()) {
    if (state.get(next) === "open") {
      const cycle = stack.slice(stack.indexOf(next))
      const steps = cycle.map((at, i) => `    ${folderEdges.get(at).get(cycle[i + 1] ?? next)}`)
      problems.push(`a cycle: ${[...cycle, next].join(" → ")}\n${steps.join("\n")}`)
    } else if (!state.has(next)) visit(next)
  }
  stack.pop()
  state.set(folder, "done")
}
for (const folder of folderEdges.keys()) if (!state.has(folder)) visit(folder)

if (problems.length > 0) {
  console.error(problems.join("\n"))
  process.exit(1)
}
const folders = new Set([...walk(ROOT)].map(folderOf))
console.log(`packages/core/src: ${folders.size} folders in their layers, no cycle between them.`)
