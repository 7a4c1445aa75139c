// Lint and format in one pass, as Effect's own repositories do: typescript-eslint's recommended
// rules, and dprint (through @effect/eslint-plugin) as the formatter, so `pnpm format` is `eslint --fix`.
import * as effectEslint from "@effect/eslint-plugin"
import eslint from "@eslint/js"
import globals from "globals"
import tseslint from "typescript-eslint"

export default tseslint.config(
  {
    // The drop-in's scripts are served to browsers as written (ES5, one file per part): not ours to reflow.
    ignores: ["**/node_modules/**", "**/dist/**", "**/*.tsbuildinfo", "**/.data/**", "bench/**", "**/browser/dropin/**"]
  },
  eslint.configs.recommended,
  tseslint.configs.recommended,
  ...effectEslint.configs.dprint,
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: { globals: { ...globals.node } }
  },
  {
    // The vault's card form and its mounting script run in browsers, as served.
    files: ["apps/http/src/vault/browser/**/*.js"],
    languageOptions: { globals: { ...globals.browser } }
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // `Data.TaggedEnum<{ Pending: {} }>` and `TaggedError<{}>` are Effect's idiom for a case without fields.
      "@typescript-eslint/no-empty-object-type": "off",
      // Each workspace package has one front door (its package.json `exports`): a module inside another
      // package is its own business. `@orchestrator/connectors/node` is a declared entry (Node-only adapters).
      "no-restricted-imports": ["error", {
        patterns: [{
          regex: "^@orchestrator/[a-z-]+/(?!node$).+",
          message: "Import a workspace package through its front door (`@orchestrator/<name>`), not a module inside it."
        }]
      }],
      "@effect/dprint": ["error", {
        config: {
          indentWidth: 2,
          lineWidth: 160,
          semiColons: "asi",
          quoteStyle: "alwaysDouble",
          trailingCommas: "never",
          operatorPosition: "maintain",
          "arrowFunction.useParentheses": "force"
        }
      }]
    }
  },
  {
    // Tests, fakes and tools read JSON whose shape the test itself asserts: `any` is allowed there, not in the product.
    files: ["**/test/**", "packages/testing/**", "apps/cli/bench/**", "apps/cli/faults/**", "examples/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" }
  }
)
