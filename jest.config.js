// Native ESM + swc: Ts.ED and the app are ESM-only, and swc keeps the suite fast.
/** @type {import('jest').Config} */
export default {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  extensionsToTreatAsEsm: [".ts"],
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  transform: {
    "^.+\\.ts$": [
      "@swc/jest",
      {
        jsc: {
          target: "es2022",
          parser: { syntax: "typescript", decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          // Keep `with { type: "json" }` (src/version.ts): Node requires it for JSON modules.
          experimental: { keepImportAttributes: true },
        },
        module: { type: "es6" },
      },
    ],
  },
  testTimeout: 30000,
  // Two files at a time: most of a file's time is waiting on the store or a child process, so
  // this halves the suite on the 2-core machines it runs on (about 3.5 minutes, not 7).
  maxWorkers: 2,
  // Each test file leaves about 20-30 MB behind in its worker (its whole module graph, under
  // --experimental-vm-modules), so a worker that ran 80 files held over 2 GB and every file after
  // the first few dozen ran two to three times slower in the collector. A worker past this after a
  // file is replaced by a fresh one (about a second).
  workerIdleMemoryLimit: "700MB",
};
