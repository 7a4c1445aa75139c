// `pnpm check:structure`: no source or test file over 400 lines, and no function over 120 in the
// sources (`src/`; a test's `describe` block may be longer), so each file holds one idea and each
// function one step. Exits 1 and lists what is over.
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import ts from "typescript"

const MAX_FILE_LINES = 400
const MAX_FUNCTION_LINES = 120

const files = execFileSync("git", ["ls-files", "packages", "apps", "examples"], { encoding: "utf8" })
  .split("\n")
  .filter((file) => /\.(ts|mjs|js)$/.test(file) && !file.endsWith(".d.ts"))

const over = []
for (const file of files) {
  const text = readFileSync(file, "utf8")
  const lines = text.split("\n").length
  if (lines > MAX_FILE_LINES) over.push(`${file}: ${lines} lines (at most ${MAX_FILE_LINES})`)
  if (!file.includes("/src/")) continue
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const lineOf = (position) => source.getLineAndCharacterOfPosition(position).line + 1
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body !== undefined) {
      const length = lineOf(node.end) - lineOf(node.getStart()) + 1
      if (length > MAX_FUNCTION_LINES) {
        over.push(`${file}:${lineOf(node.getStart())}: a function of ${length} lines (at most ${MAX_FUNCTION_LINES})`)
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
}

if (over.length > 0) {
  console.error(over.join("\n"))
  process.exit(1)
}
console.log(`${files.length} files: none over ${MAX_FILE_LINES} lines, no function over ${MAX_FUNCTION_LINES}.`)
