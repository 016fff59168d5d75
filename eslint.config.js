// Lint rules for src/, test/, bench/ and scripts/ (`npm run lint`, also run by .ci/run). Formatting is
// Prettier's (.prettierrc.json); these rules are about correctness and the house habits.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "dist-bench/", "generated/", "node_modules/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts"],
    rules: {
      // No `any` anywhere, across module boundaries least of all.
      "@typescript-eslint/no-explicit-any": "error",
      // A name starting with _ is unused on purpose (a destructured field left out, say).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // Lines of at most 120 characters; a string is not broken to fit (an error message that must
      // match MongoDB's or ArchivesSpace's byte for byte stays one literal).
      "max-len": [
        "error",
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
      // Text checks match control characters on purpose (NUL and the C0 range are refused in text).
      "no-control-regex": "off",
    },
  },
  {
    // Tests and benchmarks walk parsed JSON answers ad hoc; `any` stays out of src/.
    files: ["test/**/*.ts", "bench/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Plain Node scripts (the fuzz test's preloaded probe).
    files: ["**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
  },
);
