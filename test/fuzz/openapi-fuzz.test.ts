// Fuzz test driven by the service's own /openapi.json: for every operation,
// random and hostile path parameters, query parameters and bodies, sent as nobody, an admin, a
// repository viewer, a repository archivist or with an unknown token, against the built Arca in
// its own process. Each request must answer below 500, leave the process alive and its
// built-in prototypes untouched, and, when it answers 4xx, leave the store as it was and say
// why in the contract's JSON (`{"error": ...}`, at most 256 KiB).
//
//   npm test -- test/fuzz          bounded: FUZZ_RUNS (default 5,000) or FUZZ_SECONDS (default 20), seed 2026
//   npm run fuzz                   longer: 100,000 runs or 15 minutes, a random seed
//   FUZZ_SEED=<n> FUZZ_PATH=<p> npm run fuzz    replays one reported failure
//
// Every failure found is recorded (one per distinct signature: kind, status, error message),
// shrunk by fast-check, and the run goes on looking for others; the test fails at the end
// listing them all with the seed and path that replay each.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describeRequest, operationArbitraries, type FuzzRequest } from "./requests.js";
import { FuzzRunner, send, type Failure } from "./runner.js";
import { seed } from "./seed.js";
import { changedCollections, FuzzService } from "./service.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 5000);
const SECONDS = Number(process.env.FUZZ_SECONDS ?? 20);
/**
 * Inside `npm test` the seed is fixed, so CI runs the same requests every time; `npm run fuzz` draws one
 * (FUZZ_SEED=random).
 */
const FIXED_SEED = 2026;
const BASE_SEED =
  process.env.FUZZ_SEED === "random"
    ? Math.floor(Math.random() * 2 ** 31)
    : process.env.FUZZ_SEED
      ? Number(process.env.FUZZ_SEED)
      : FIXED_SEED;
const REPLAY_PATH = process.env.FUZZ_PATH;
/** Shrinking steps per failure; fewer for a death, which costs a restart of the service per step. */
const SHRINK_LIMIT = Number(process.env.FUZZ_SHRINK_LIMIT ?? 120);
const DEATH_SHRINK_LIMIT = 15;

interface Recorded {
  failure: Failure;
  request: FuzzRequest;
  shrunk: boolean;
  seed?: number;
  path?: string;
  count: number;
  operations: Set<string>;
}

let service: FuzzService;
let runner: FuzzRunner;
let requests: fc.Arbitrary<FuzzRequest>;
let operationCount = 0;

beforeAll(async () => {
  service = await FuzzService.start();
  const document = JSON.parse(
    (await send(service.port, { method: "GET", target: "/openapi.json", headers: {} }, Infinity)).body,
  ) as Record<string, unknown>;
  const seeded = await seed(service, document);
  if (seeded.notes.length > 0)
    process.stderr.write(`[fuzz] seeding notes (not failures):\n  ${seeded.notes.join("\n  ")}\n`);
  const operations = operationArbitraries(document, seeded.context);
  operationCount = operations.length;
  requests = fc.oneof(...operations.map((o) => o.arbitrary));
  runner = new FuzzRunner(service, seeded.credentials);
  await runner.init();
}, 180_000);

afterAll(async () => {
  await service?.stop();
});

function report(recorded: Recorded): string {
  const { failure, request } = recorded;
  const replay =
    recorded.seed !== undefined
      ? `FUZZ_SEED=${recorded.seed} FUZZ_PATH=${recorded.path ?? ""} npm run fuzz`
      : "(not shrunk: seen while shrinking another failure)";
  return [
    `${failure.kind}: ${failure.signature}`,
    `  seen ${recorded.count}x on ${[...recorded.operations].slice(0, 8).join(", ")}${recorded.operations.size > 8 ? ", ..." : ""}`,
    `  request: ${describeRequest(request).replace(/\n/g, "\n  ")}`,
    `  answer: ${failure.status} ${failure.body.slice(0, 800)}`,
    ...(failure.detail ? [`  detail: ${failure.detail.slice(0, 3_000).replace(/\n/g, "\n    ")}`] : []),
    `  replay: ${replay}`,
  ].join("\n");
}

describe("fuzzing every operation of /openapi.json", () => {
  it("has detectors that see what they look for: a prototype change, a write, no write", async () => {
    expect(await service.probeSelfTest()).toEqual(["Object.prototype.fuzzProbeSelfTest added"]);
    expect(await service.prototypeChanges()).toEqual([]);
    const before = await service.fingerprint();
    expect(
      (
        await runner.run({
          operation: "GET /vocabularies",
          method: "GET",
          target: "/vocabularies?page=1",
          identity: "admin",
          headers: {},
        })
      ).status,
    ).toBe(200);
    expect(changedCollections(before, await service.fingerprint())).toEqual([]);
    const body = Buffer.from(JSON.stringify({ name: "Detector check", ref_id: `detector-${BASE_SEED}` }));
    expect(
      (
        await runner.run({
          operation: "POST /vocabularies",
          method: "POST",
          target: "/vocabularies",
          identity: "admin",
          headers: { "content-type": "application/json" },
          body,
        })
      ).status,
    ).toBe(200);
    expect(changedCollections(before, await service.fingerprint()).map((c) => c.split(" ")[0])).toContain(
      "vocabularies",
    );
  });

  it(
    "never answers 5xx, never dies, never pollutes a prototype, never changes the store on a 4xx, answers every error as bounded contract JSON",
    async () => {
      const recorded = new Map<string, Recorded>();
      const deadline = Date.now() + SECONDS * 1000;
      let remaining = RUNS;
      let round = 0;
      process.stderr.write(
        `[fuzz] ${operationCount} operations; seed ${BASE_SEED}; at most ${RUNS} runs or ${SECONDS} s\n`,
      );
      while (remaining > 0 && Date.now() < deadline) {
        const roundSeed = (BASE_SEED + round) | 0;
        let target: string | undefined;
        let limit = SHRINK_LIMIT;
        let shrinkSteps = 0;
        let runs = 0;
        const property = fc.asyncProperty(requests, async (request) => {
          if (target === undefined) runs++;
          else if (++shrinkSteps > limit) return true;
          const { failure } = await runner.run(request);
          if (!failure) return true;
          const seen = recorded.get(failure.signature);
          if (seen) {
            seen.count++;
            seen.operations.add(request.operation);
          } else {
            recorded.set(failure.signature, {
              failure,
              request,
              shrunk: false,
              count: 1,
              operations: new Set([request.operation]),
            });
          }
          if (target === undefined) {
            if (seen?.shrunk) return true; // known and already shrunk: keep looking for others
            target = failure.signature;
            if (failure.kind === "death") limit = DEATH_SHRINK_LIMIT;
            return false;
          }
          if (failure.signature !== target) return true;
          // The shrinker only goes on from smaller failing values: the last one is the smallest.
          const best = recorded.get(target)!;
          best.request = request;
          best.failure = failure;
          return false;
        });
        const details = await fc.check(property, {
          seed: roundSeed,
          numRuns: REPLAY_PATH ? 1 : remaining,
          path: REPLAY_PATH,
          interruptAfterTimeLimit: Math.max(1, deadline - Date.now()),
          markInterruptAsFailure: false,
        });
        remaining -= runs;
        if (!details.failed || target === undefined || REPLAY_PATH) {
          if (details.failed && target !== undefined)
            Object.assign(recorded.get(target)!, {
              shrunk: true,
              seed: roundSeed,
              path: details.counterexamplePath ?? undefined,
            });
          break;
        }
        Object.assign(recorded.get(target)!, {
          shrunk: true,
          seed: roundSeed,
          path: details.counterexamplePath ?? undefined,
        });
        process.stderr.write(`[fuzz] round ${round}: ${target}\n`);
        round++;
      }
      const statuses = [...runner.statusCounts.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([status, n]) => `${status}: ${n}`)
        .join(", ");
      const { send: sendMs, probe, fingerprint } = runner.timings;
      process.stderr.write(
        `[fuzz] ${runner.requests} requests (${statuses}); time in requests ${(sendMs / 1000).toFixed(0)} s, probe ${(probe / 1000).toFixed(0)} s, store fingerprints ${(fingerprint / 1000).toFixed(0)} s; ${service.starts} service start(s); ${recorded.size} distinct failure(s)\n`,
      );
      const reports = [...recorded.values()].map(report);
      const dir = join(tmpdir(), "arca-fuzz");
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `report-${BASE_SEED}.txt`), `${reports.join("\n\n")}\n`);
      if (reports.length > 0)
        process.stderr.write(
          `[fuzz] failures (also in ${join(dir, `report-${BASE_SEED}.txt`)}):\n\n${reports.join("\n\n")}\n`,
        );
      expect(reports).toEqual([]);
    },
    SECONDS * 1000 + 600_000,
  );
});
