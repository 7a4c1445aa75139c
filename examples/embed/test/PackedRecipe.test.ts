import { execFile } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { builtinModules } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join, relative, resolve } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const root = resolve(import.meta.dirname, "../../..")
const exec = promisify(execFile)
const tsc = join(root, "node_modules/typescript/bin/tsc")
/** pnpm as a reader runs it: the one running this suite (`pnpm test`), else the one on PATH. */
const pnpm = process.env.npm_execpath !== undefined && /pnpm/.test(process.env.npm_execpath)
  ? [process.execPath, process.env.npm_execpath]
  : ["pnpm"]

/** The README's "Embedding the core", as a reader sees it. */
const section = (() => {
  const readme = readFileSync(join(root, "README.md"), "utf8")
  const start = readme.indexOf("\n## Embedding the core\n")
  return readme.slice(start, readme.indexOf("\n## ", start + 1))
})()
/** The recipe: the `ts` block after the `<!-- embedding-recipe… -->` comment, verbatim. */
const recipe = section.match(/<!-- embedding-recipe[^>]*-->\n```ts\n([\s\S]*?)\n```/)?.[1]
/** The workspace packages the section tells a host to pack (its `for package in …; do` line). */
const packages = section.match(/for package in ([a-z -]+); do/)?.[1]?.trim().split(/ +/) ?? []

/** A host's project, strict: what the recipe must compile under. */
const tsconfig = {
  compilerOptions: {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUnusedLocals: true,
    module: "NodeNext",
    moduleResolution: "NodeNext",
    target: "ES2022",
    lib: ["ES2022"],
    types: ["node"],
    // PGlite's own declarations name Emscripten types it does not ship; ours are checked where built.
    skipLibCheck: true,
    rootDir: "src",
    outDir: "dist"
  },
  include: ["src"]
}

interface Manifest {
  readonly name: string
  readonly version: string
  readonly dependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
}
const manifestOf = (directory: string): Manifest => JSON.parse(readFileSync(join(directory, "package.json"), "utf8"))

let temporary: string
/** The host's project, outside the workspace. */
let host: string
/** Each packed package as unpacked into the host's node_modules: its workspace folder, its manifest as packed. */
let installed: ReadonlyArray<{ readonly folder: string; readonly directory: string; readonly manifest: Manifest }>

/** Links a dependency of `folder` (a workspace package) into `modules`, where Node and tsc will find it. */
const linkDependency = (folder: string, name: string, modules: string) => {
  const target = realpathSync(join(root, "packages", folder, "node_modules", name))
  const link = join(modules, name)
  if (!existsSync(link)) {
    mkdirSync(dirname(link), { recursive: true })
    symlinkSync(target, link, "dir")
  }
  return realpathSync(link) === target
}

beforeAll(async () => {
  expect(recipe, "README: no ```ts block after <!-- embedding-recipe --> in \"Embedding the core\"").toBeDefined()
  expect(packages, "README: no `for package in …; do` line in \"Embedding the core\"").not.toEqual([])
  temporary = mkdtempSync(join(tmpdir(), "embedding-recipe-"))
  host = join(temporary, "host")
  expect(relative(root, host).startsWith("..")).toBe(true)

  // The build the tarballs hold: up to date with the sources (tsc -b does nothing when it already is).
  await exec("node", [tsc, "-b", ...packages.map((folder) => `packages/${folder}/tsconfig.build.json`)], { cwd: root })
  const packs = join(temporary, "packs")
  await Promise.all(
    packages.map((folder) => exec(pnpm[0]!, [...pnpm.slice(1), "pack", "--pack-destination", packs], { cwd: join(root, "packages", folder) }))
  )

  // npm's layout: each tarball unpacked at node_modules/<name>, third-party dependencies beside them
  // (linked from the workspace's store, as each package resolves them there: no network).
  const modules = join(host, "node_modules")
  const unpacked = packages.map((folder) => {
    const { name, version } = manifestOf(join(root, "packages", folder))
    return { folder, directory: join(modules, name), tarball: join(packs, `${name.slice(1).replace("/", "-")}-${version}.tgz`) }
  })
  await Promise.all(unpacked.map(({ directory, tarball }) => {
    mkdirSync(directory, { recursive: true })
    return exec("tar", ["-xzf", tarball, "-C", directory, "--strip-components=1"])
  }))
  installed = unpacked.map(({ directory, folder }) => ({ folder, directory, manifest: manifestOf(directory) }))
  for (const { directory, folder, manifest } of installed) {
    for (const name of Object.keys(manifest.dependencies ?? {})) {
      if (name.startsWith("@orchestrator/")) continue
      // Another version than the one already beside them: nested under the package, as npm would.
      if (!linkDependency(folder, name, modules)) linkDependency(folder, name, join(directory, "node_modules"))
    }
  }
  const types = join(modules, "@types/node")
  mkdirSync(dirname(types), { recursive: true })
  symlinkSync(realpathSync(join(root, "node_modules/@types/node")), types, "dir")

  mkdirSync(join(host, "src"), { recursive: true })
  writeFileSync(join(host, "package.json"), JSON.stringify({ name: "host", private: true, type: "module" }))
  writeFileSync(join(host, "tsconfig.json"), JSON.stringify(tsconfig, null, 2))
  writeFileSync(join(host, "src/main.ts"), recipe ?? "")
}, 240_000)

afterAll(() => {
  if (temporary !== undefined) rmSync(temporary, { recursive: true, force: true })
})

describe("the README's embedding recipe, on the packed packages", () => {
  it("type-checks against the packed declarations, runs, and takes a card payment on the sandbox", async () => {
    const checked = await exec("node", [tsc, "-p", "."], { cwd: host }).then(() => "", (error: { stdout: string }) => error.stdout)
    expect(checked).toBe("")
    const { stdout } = await exec("node", ["dist/main.js"], { cwd: host, timeout: 60_000 })
    expect(stdout).toMatch(/^payment pay_[0-9A-Z]+: succeeded$/m)
  }, 120_000)

  it("packs every workspace package the listed ones depend on, each declaring what its build imports", () => {
    const names = new Set(installed.map(({ manifest }) => manifest.name))
    const problems: Array<string> = []
    for (const { directory, manifest } of installed) {
      const declared = new Set([manifest.name, ...Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })])
      for (const name of declared) {
        if (name.startsWith("@orchestrator/") && !names.has(name)) problems.push(`${manifest.name} needs ${name}, which the README does not pack`)
      }
      for (const specifier of importsOf(join(directory, "dist"))) {
        const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!
        if (!declared.has(name) && !isBuiltin(specifier)) problems.push(`${manifest.name} imports ${specifier} without declaring ${name}`)
      }
    }
    expect([...new Set(problems)]).toEqual([])
  })

  it("names each third-party dependency of the packed packages at its version", () => {
    const dependencies = installed.flatMap(({ manifest }) => Object.entries(manifest.dependencies ?? {}))
      .filter(([name]) => !name.startsWith("@orchestrator/"))
    const unnamed = [...new Set(dependencies.map(([name, version]) => `${name}@${version}`))]
      .filter((pinned) => !section.includes(`\`${pinned}\``))
    expect(unnamed).toEqual([])
  })
})

const isBuiltin = (specifier: string) => specifier.startsWith("node:") || builtinModules.includes(specifier.split("/")[0]!)

/** Every bare module specifier the JavaScript and declarations under `directory` import. */
const importsOf = (directory: string): Set<string> => {
  const found = new Set<string>()
  for (const entry of readdirSync(directory, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.(js|d\.ts)$/.test(entry.name)) continue
    const source = readFileSync(join(entry.parentPath, entry.name), "utf8")
    for (const [, specifier] of source.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*"([^"./][^"]*)"/g)) found.add(specifier!)
  }
  return found
}
