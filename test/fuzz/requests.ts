// One request arbitrary per operation of /openapi.json: path parameters (records that exist,
// numbers that do not, hostile strings, broken percent-encoding), the operation's query
// parameters plus hostile extras (resolve[] prototype climbs, bracketed keys for qs), a body
// per the request schema with mutations, or a hostile body where none is expected, sent as
// nobody, an admin, a repository viewer, a repository archivist or with an unknown token.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { HOSTILE_RESOLVE, hostileKey, hostileString, percentEncode, urlComponent, urlString } from "./hostile.js";
import { deepNest, mutate, mutation, randomJson, serialize, type JsonNode } from "./json-text.js";
import { valueFor, type SchemaContext } from "./schema-values.js";

export type Identity = "none" | "admin" | "viewer" | "archivist" | "bogus";

export interface FuzzRequest {
  /** "POST /repositories/{repo_id}/accessions": the operation of the document it came from. */
  operation: string;
  method: string;
  /** Path and query as sent, already encoded (or deliberately mis-encoded). */
  target: string;
  identity: Identity;
  headers: Record<string, string>;
  body?: Buffer;
  /** What the body is, for a report (a body can be megabytes). */
  bodyNote?: string;
}

type Json = Record<string, unknown>;

interface Parameter {
  name: string;
  in: string;
  schema?: Json;
}

export interface FuzzContext extends SchemaContext {
  /** Ids that exist, for path parameters (records of any type, repositories). */
  ids: readonly number[];
  repoIds: readonly number[];
  usernames: readonly string[];
  /** User ids the fuzz test logs in with: never changed or deleted by a fuzzed request. */
  protectedUserIds: ReadonlySet<number>;
  /** Repositories that hold the seeded records: never deleted by a fuzzed request. */
  protectedRepoIds: ReadonlySet<number>;
  /** Real link field names, for resolve[]. */
  linkFields: readonly string[];
  /** Small real files for the import route. */
  importSamples: ReadonlyArray<{ format: string; body: Buffer }>;
}

const METHODS = ["get", "post", "delete"] as const;
const BOOLEAN_TEXT = ["true", "false", "True", "FALSE", "tRuE"];

const isJson = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

function pathValue(name: string, template: string, method: string, context: FuzzContext): fc.Arbitrary<string> {
  const hostile = urlComponent(urlString());
  const number = fc.oneof(fc.integer({ min: -5, max: 50 }), fc.constantFrom(0, 2 ** 31, 2 ** 53 + 1, 1e21)).map(String);
  let known: fc.Arbitrary<string>;
  if (name === "repo_id") known = fc.constantFrom(...context.repoIds).map(String);
  else if (name === "username") known = fc.constantFrom(...context.usernames).map(percentEncode);
  else if (name === "name")
    known = fc
      .constantFrom(...context.components.keys(), "accession", "resource", "linked_agent_role", "extent_extent_type")
      .map(percentEncode);
  else known = fc.constantFrom(...context.ids).map(String);
  const value = fc.oneof(
    { weight: 6, arbitrary: known },
    { weight: 2, arbitrary: number },
    { weight: 2, arbitrary: hostile },
  );
  // The fuzz test's own users and seeded repositories stay as they are, so later runs still
  // reach the code behind the session and repository checks.
  if (template.startsWith("/users/{id}") && name === "id")
    return value.map((v) => (context.protectedUserIds.has(Number(v)) ? "999" : v));
  if (template === "/repositories/{id}" && method === "delete")
    return value.map((v) => (context.protectedRepoIds.has(Number(v)) ? "999" : v));
  return value;
}

function queryValue(parameter: Parameter, context: FuzzContext): fc.Arbitrary<string[]> {
  const schema = parameter.schema ?? {};
  const hostile = urlComponent(urlString());
  const one = (valid: fc.Arbitrary<string>) =>
    fc.oneof({ weight: 4, arbitrary: valid.map(percentEncode) }, { weight: 1, arbitrary: hostile });
  if (parameter.name === "resolve[]") {
    const path = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_RESOLVE, ...context.linkFields) },
      { weight: 1, arbitrary: urlString() },
    );
    // Many paths at once: a wide resolve tree (1,000 keeps the URL under 16 KiB).
    const many = fc
      .constantFrom("__proto__", "a", "related_resources::related_accessions")
      .map((v) => Array<string>(Math.floor(12_000 / (v.length + 12))).fill(percentEncode(v)));
    return fc.oneof(
      { weight: 8, arbitrary: fc.array(path.map(percentEncode), { minLength: 1, maxLength: 4 }) },
      { weight: 1, arbitrary: many },
      { weight: 1, arbitrary: fc.array(hostile, { maxLength: 3 }) },
    );
  }
  if (schema.type === "array") {
    const items = isJson(schema.items) ? schema.items : {};
    const item =
      items.type === "integer"
        ? fc.oneof(fc.constantFrom(...context.ids), fc.integer({ min: -3, max: 100 })).map(String)
        : fc.constantFrom(...context.uris, "x");
    return fc.oneof(
      { weight: 4, arbitrary: fc.array(one(item), { maxLength: 5 }) },
      { weight: 1, arbitrary: fc.constant(Array<string>(300).fill("1")) },
    );
  }
  if (Array.isArray(schema.enum)) return one(fc.constantFrom(...schema.enum.map(String))).map((v) => [v]);
  if (typeof schema.pattern === "string" && schema.pattern.includes("[Tt][Rr]"))
    return one(fc.constantFrom(...BOOLEAN_TEXT)).map((v) => [v]);
  if (schema.type === "integer")
    return one(
      fc
        .oneof(fc.integer({ min: -2, max: 300 }), fc.constantFrom(...context.ids), fc.constant(2 ** 53 + 1))
        .map(String),
    ).map((v) => [v]);
  if (parameter.name === "node_uri" || parameter.name === "parent_node")
    return one(fc.constantFrom(...context.uris, "")).map((v) => [v]);
  if (parameter.name === "password")
    return one(fc.constantFrom("wrong", "", "fuzz-user-password", "a".repeat(10_000))).map((v) => [v]);
  return fc.array(one(fc.string({ maxLength: 12 })), { minLength: 1, maxLength: 2 });
}

/** Query entries no operation declares: prototype keys for qs's bracket syntax, repeats, junk. */
function extraQuery(): fc.Arbitrary<Array<[string, string]>> {
  const entry = fc.oneof(
    fc.constantFrom<[string, string]>(
      ["__proto__[polluted]", "1"],
      ["constructor[prototype][polluted]", "1"],
      ["resolve[__proto__]", "polluted"],
      ["resolve[][__proto__]", "polluted"],
      ["resolve", "__proto__::polluted"],
      ["page[]", "1"],
      ["page[a]", "1"],
      ["__proto__", "polluted"],
      ["toString", "x"],
      ["a[b][c][d][e][f][g][h][i][j][k]", "1"],
      ["[]", "1"],
    ),
    fc.tuple(hostileKey().map(percentEncode), urlComponent(urlString())),
  );
  return fc.array(entry, { maxLength: 3 });
}

interface BodyChoice {
  contentType?: string;
  encoding?: "gzip";
  body: Buffer;
  note: string;
}

function note(kind: string, body: Buffer): string {
  const head = body.subarray(0, 600).toString("utf8");
  return `${kind}, ${body.length} bytes: ${head}${body.length > 600 ? " ..." : ""}`;
}

/** Raw bodies that are not quite JSON, or JSON that is hard to hold. */
function hostileJsonText(): fc.Arbitrary<Buffer> {
  return fc.oneof(
    fc
      .constantFrom(
        "{",
        '{"a":}',
        "\ufeff{}",
        '{"title":"a","title":"b"}',
        '{"__proto__":{"polluted":"yes"}}',
        '{"constructor":{"prototype":{"polluted":"yes"}}}',
        '{"title":"\\ud800"}',
        '{"title":"a\\u0000b"}',
        "1e999",
        "-",
        "null",
        '"text"',
        "[]",
        "[" + "1,".repeat(200_000) + "1]",
        "1".repeat(100_000),
      )
      .map((text) => Buffer.from(text)),
    fc.constantFrom(1_000, 100_000, 2_000_000).map((depth) => Buffer.from(serialize(deepNest(depth, "array")))),
    // Bytes that are not UTF-8 inside a string, and a raw NUL.
    fc.constant(
      Buffer.from([
        0x7b, 0x22, 0x74, 0x69, 0x74, 0x6c, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xed, 0xa0, 0x80, 0x22, 0x7d,
      ]),
    ),
    fc.constant(Buffer.from('{"title":"a\u0000b"}')),
    fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
  );
}

/** A multipart/form-data body of a few fields (the service's multipart parser, reached on any path). */
function multipart(): fc.Arbitrary<BodyChoice> {
  const field = fc.tuple(
    fc.oneof(hostileKey(), fc.constantFrom("password", "page", "resolve[]", "__proto__[polluted]")),
    fc.oneof(
      hostileString(),
      fc.constantFrom(10_000, 1_000_000).map((n) => "m".repeat(n)),
    ),
  );
  return fc.array(field, { minLength: 1, maxLength: 4 }).map((fields) => {
    const boundary = "fuzzboundary0123456789";
    const parts = fields.map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, "_")}"\r\n\r\n${value}\r\n`,
    );
    const body = Buffer.from(`${parts.join("")}--${boundary}--\r\n`);
    return { contentType: `multipart/form-data; boundary=${boundary}`, body, note: note("multipart", body) };
  });
}

function urlencoded(): fc.Arbitrary<BodyChoice> {
  return fc
    .array(
      fc.tuple(
        fc
          .oneof(
            hostileKey(),
            fc.constantFrom("password", "expiring", "page", "__proto__[polluted]", "constructor[prototype][x]"),
          )
          .map(percentEncode),
        urlComponent(hostileString()),
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((entries) => {
      const body = Buffer.from(entries.map(([k, v]) => `${k}=${v}`).join("&"));
      return { contentType: "application/x-www-form-urlencoded", body, note: note("urlencoded", body) };
    });
}

/** A JSON text sent with one of the content types clients really use, sometimes gzipped. */
function jsonBody(node: fc.Arbitrary<Buffer>, kind: string): fc.Arbitrary<BodyChoice> {
  return fc
    .tuple(
      node,
      fc.constantFrom<string | undefined>(
        "application/json",
        "application/json",
        "application/json",
        undefined,
        "application/x-www-form-urlencoded",
        "text/plain",
        "application/json; charset=latin1",
      ),
      fc.nat(9),
    )
    .map(([body, contentType, gzipRoll]) => {
      const encoding = gzipRoll === 0 ? ("gzip" as const) : undefined;
      return {
        contentType,
        encoding,
        body: encoding ? gzipSync(body) : body,
        note: note(`${kind}${encoding ? " (gzipped)" : ""}`, body),
      };
    });
}

function schemaBody(schema: unknown, context: FuzzContext): fc.Arbitrary<BodyChoice> {
  const valid = valueFor(schema, context);
  const text = (node: JsonNode) => Buffer.from(serialize(node));
  return fc.oneof(
    { weight: 3, arbitrary: jsonBody(valid.map(text), "schema value") },
    {
      weight: 5,
      arbitrary: jsonBody(
        fc
          .tuple(valid, fc.array(mutation(), { minLength: 1, maxLength: 3 }))
          .map(([node, changes]) => text(mutate(node, changes))),
        "mutated schema value",
      ),
    },
    { weight: 1, arbitrary: jsonBody(randomJson().map(text), "random JSON") },
    { weight: 1, arbitrary: jsonBody(hostileJsonText(), "hostile JSON text") },
    { weight: 1, arbitrary: multipart() },
  );
}

/** Hostile XML and CSV for the import route, and the real files now and then. */
function importBody(context: FuzzContext): fc.Arbitrary<BodyChoice> {
  const ead = (inner: string) =>
    `<?xml version="1.0"?><ead xmlns="urn:isbn:1-931666-22-9"><eadheader><eadid>fuzz</eadid><filedesc><titlestmt><titleproper>x</titleproper></titlestmt></filedesc></eadheader><archdesc level="collection"><did><unittitle>${inner}</unittitle><unitid>f1</unitid><unitdate>2000</unitdate><physdesc><extent>1 boxes</extent></physdesc></did></archdesc></ead>`;
  const hostile = fc
    .oneof(
      fc.constantFrom(10, 1_000, 20_000).map((n) => ead(`${"<emph>".repeat(n)}t${"</emph>".repeat(n)}`)),
      fc
        .constantFrom(1_000, 20_000)
        .map((n) =>
          ead(
            `</unittitle></did><dsc>${'<c level="file"><did><unittitle>c</unittitle></did>'.repeat(n)}${"</c>".repeat(n)}</dsc><did><unittitle>`,
          ),
        ),
      fc.constant(
        '<?xml version="1.0"?><!DOCTYPE ead [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><ead>&b;</ead>',
      ),
      fc.constant('<?xml version="1.0"?><!DOCTYPE ead SYSTEM "file:///etc/passwd"><ead/>'),
      fc.constantFrom(100_000, 2_000_000).map((n) => ead("t".repeat(n))),
      fc.constant(`<ead ${"a".repeat(1_000_000)}="1"/>`),
      fc.constant("<ead><eadheader>"),
      fc.constant("__proto__,constructor,toString\n1,2,3\n"),
      fc.constant('title,__proto__\nx,{"polluted":1}\n'),
      fc.constant('[{"jsonmodel_type":"__proto__","uri":"/x"}]'),
      fc.constant(
        '[{"jsonmodel_type":"accession","uri":"/repositories/2/accessions/import_1","title":"t","__proto__":{"polluted":1},"constructor":"x"}]',
      ),
    )
    .map((text) => Buffer.from(text));
  const samples =
    context.importSamples.length > 0
      ? fc.constantFrom(...context.importSamples.map((s) => s.body))
      : fc.constant(Buffer.from("<ead/>"));
  return fc
    .oneof(
      { weight: 4, arbitrary: hostile },
      { weight: 1, arbitrary: samples },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 256 }).map((b) => Buffer.from(b)) },
    )
    .map((body) => ({ contentType: "application/octet-stream", body, note: note("import file", body) }));
}

function bodyFor(operation: Json, template: string, context: FuzzContext): fc.Arbitrary<BodyChoice | undefined> {
  const requestBody = isJson(operation.requestBody) ? operation.requestBody : undefined;
  const content = requestBody && isJson(requestBody.content) ? requestBody.content : undefined;
  if (!content) {
    // No body expected: mostly none, sometimes one anyway (bodies used to be parsed before routing).
    return fc.oneof(
      { weight: 6, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: multipart() },
      { weight: 1, arbitrary: urlencoded() },
      { weight: 1, arbitrary: jsonBody(hostileJsonText(), "hostile JSON text") },
    );
  }
  if (template.endsWith("/imports")) return importBody(context);
  const json = isJson(content["application/json"]) ? content["application/json"] : undefined;
  const choices: Array<fc.Arbitrary<BodyChoice | undefined>> = [];
  if (json) choices.push(schemaBody(json.schema, context));
  if (content["application/x-www-form-urlencoded"]) choices.push(urlencoded());
  if (content["multipart/form-data"]) choices.push(multipart());
  if (requestBody?.required !== true) choices.push(fc.constant(undefined));
  return fc.oneof(...choices);
}

function parametersOf(pathItem: Json, operation: Json): Parameter[] {
  const all = [
    ...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []),
    ...(Array.isArray(operation.parameters) ? operation.parameters : []),
  ];
  return all.filter((p): p is Parameter => isJson(p) && typeof p.name === "string" && typeof p.in === "string");
}

function requestFor(
  template: string,
  method: string,
  pathItem: Json,
  operation: Json,
  context: FuzzContext,
): fc.Arbitrary<FuzzRequest> {
  const parameters = parametersOf(pathItem, operation);
  const pathParameters = parameters.filter((p) => p.in === "path");
  const queryParameters = parameters.filter((p) => p.in === "query");
  const pathValues = fc.tuple(...pathParameters.map((p) => pathValue(p.name, template, method, context)));
  const queryValues = fc.tuple(
    ...queryParameters.map((p) => fc.option(queryValue(p, context), { nil: undefined, freq: 2 })),
  );
  const identity = fc.constantFrom<Identity>("none", "admin", "admin", "viewer", "archivist", "bogus");
  return fc
    .record({
      pathValues,
      queryValues,
      extra: fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: extraQuery() }),
      identity,
      body: bodyFor(operation, template, context),
    })
    .map(({ pathValues: values, queryValues: queries, extra, identity: who, body }) => {
      let path = template;
      pathParameters.forEach((p, i) => (path = path.replace(`{${p.name}}`, values[i])));
      const query: Array<[string, string]> = [];
      queryParameters.forEach((p, i) => queries[i]?.forEach((v) => query.push([p.name, v])));
      query.push(...extra);
      const headers: Record<string, string> = {};
      if (body?.contentType) headers["content-type"] = body.contentType;
      if (body?.encoding) headers["content-encoding"] = body.encoding;
      return {
        operation: `${method.toUpperCase()} ${template}`,
        method: method.toUpperCase(),
        target: query.length > 0 ? `${path}?${query.map(([k, v]) => `${k}=${v}`).join("&")}` : path,
        identity: who,
        headers,
        body: body?.body,
        bodyNote: body?.note,
      };
    });
}

export interface OperationArbitrary {
  operation: string;
  arbitrary: fc.Arbitrary<FuzzRequest>;
}

/** One arbitrary per operation of the document. */
export function operationArbitraries(document: Json, context: FuzzContext): OperationArbitrary[] {
  const paths = isJson(document.paths) ? document.paths : {};
  const found: OperationArbitrary[] = [];
  for (const [template, item] of Object.entries(paths)) {
    if (!isJson(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (isJson(operation))
        found.push({
          operation: `${method.toUpperCase()} ${template}`,
          arbitrary: requestFor(template, method, item, operation, context),
        });
    }
  }
  return found;
}

export function readImportSample(path: string, format: string): { format: string; body: Buffer } {
  return { format, body: readFileSync(path) };
}

/** A fuzzed request as a command line that replays it (body bytes elided past a few hundred). */
export function describeRequest(request: FuzzRequest): string {
  const headers = Object.entries(request.headers)
    .map(([k, v]) => ` -H '${k}: ${v}'`)
    .join("");
  const session = request.identity === "none" ? "" : ` -H 'X-ArchivesSpace-Session: <${request.identity}>'`;
  const target =
    request.target.length > 2_000
      ? `${request.target.slice(0, 2_000)}... (${request.target.length} chars)`
      : request.target;
  return `curl -X ${request.method}${session}${headers} 'http://HOST${target}'${request.bodyNote ? `\n  body: ${request.bodyNote}` : ""}`;
}
