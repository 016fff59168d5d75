// `node dist/scripts/endpoint-census.js <openapi.json file or URL> [endpoints.json] [client-calls.json]`:
// prints, as Markdown, which ArchivesSpace endpoints and client calls the OpenAPI document serves. It starts
// nothing: give it a file saved from a running Arca's /openapi.json, or that URL. Run from the package root (the
// fixtures default to test/fixtures/).
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { readCalls, readEndpoints, readOpenApi, renderCensus, runCensus } from "./census/endpoint-census.js";

async function readJson(source: string): Promise<unknown> {
  if (/^https?:\/\//.test(source)) {
    const response = await fetch(source, { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(`${source} answered ${response.status}`);
    return response.json();
  }
  return JSON.parse(await readFile(resolve(source), "utf8")) as unknown;
}

const [documentSource, endpointsSource, callsSource] = process.argv.slice(2);
if (!documentSource) {
  console.error("usage: endpoint-census <openapi.json file or URL> [endpoints.json] [client-calls.json]");
  process.exitCode = 2;
} else {
  const [document, endpoints, calls] = await Promise.all([
    readJson(documentSource),
    readJson(endpointsSource ?? "test/fixtures/archivesspace-endpoints.json"),
    readJson(callsSource ?? "test/fixtures/client-calls.json"),
  ]);
  process.stdout.write(renderCensus(runCensus(readOpenApi(document), readEndpoints(endpoints), readCalls(calls))));
}
