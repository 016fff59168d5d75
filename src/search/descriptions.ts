// The search routes (routes.ts), and how they are described in /openapi.json.
import {
  commonResponses,
  idPathParameter,
  jsonResponse,
  notFoundResponse,
  responseRef,
  type DocumentContext,
  type HttpMethod,
  type Parameter,
  type Response,
  type Tag,
} from "../http/api-description.js";
import type { RouteOperation } from "../http/described-route.js";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../records/operations/index.js";
import { FACET_LIMIT, MAX_FACETS } from "./facets.js";
import { CSV_COLUMNS, CSV_MAX_ROWS } from "./search-csv.js";
import { MAX_RESOLVE } from "./search-resolve.js";
import { ADVANCED_MAX_BYTES } from "./query/advanced.js";

export interface SearchRoute {
  path: string;
  methods: readonly HttpMethod[];
  /** The permission needed (in the repository, for a repository's search). */
  permission: string;
  /** The types the route searches whatever `type[]` says (undefined: any, or those `type[]` names). */
  types?: readonly string[];
  summary: string;
}

export const SEARCH_ROUTES: readonly SearchRoute[] = [
  {
    path: "/repositories/:repo_id/search",
    methods: ["get", "post"],
    permission: "view_repository",
    summary: "Search a repository's records (and the global ones: agents, subjects, ...)",
  },
  { path: "/search", methods: ["get", "post"], permission: "view_all_records", summary: "Search every repository" },
  {
    path: "/search/repositories",
    methods: ["get", "post"],
    permission: "view_all_records",
    types: ["repository"],
    summary: "Search the repositories",
  },
  {
    path: "/search/subjects",
    methods: ["get", "post"],
    permission: "view_all_records",
    types: ["subject"],
    summary: "Search the subjects",
  },
  {
    path: "/search/location_profile",
    methods: ["get"],
    permission: "view_all_records",
    types: ["location_profile"],
    summary: "Search the location profiles",
  },
];

const SEARCH: Tag = {
  name: "search",
  description:
    "ArchivesSpace's search, served from an index inside the store written in the same transaction as every " +
    "record: a record is found by the request after the one that wrote it, and a deleted one no longer is.",
};

const STRINGS = { type: "array", items: { type: "string" } };

function parameter(name: string, description: string, schema: Parameter["schema"], required = false): Parameter {
  return { name, in: "query", description, schema, ...(required && { required }) };
}

function arrayParameter(name: string, description: string): Parameter {
  return { name: `${name}[]`, in: "query", description, schema: STRINGS, style: "form", explode: true };
}

function parameters(route: SearchRoute): Parameter[] {
  return [
    parameter("page", "The page, from 1. Required (but for `all_ids=true` with no page: page 1).", {
      type: "integer",
      minimum: 1,
    }),
    parameter(
      "page_size",
      `Results per page (default ${DEFAULT_PAGE_SIZE}; more than ${MAX_PAGE_SIZE} is cut to it).`,
      {
        type: "integer",
        minimum: 1,
      },
    ),
    parameter(
      "q",
      'A Lucene query: terms (OR between them), `"phrases"`, `AND`/`OR`/`NOT`, `+`/`-`, parentheses, ' +
        "`field:value`, suffix wildcards (`F*`), backslash escapes, ranges `[a TO b]`. Fields: keyword (the " +
        "default: all text), title, identifier, the fields the record types declare (x-search: notes, level, " +
        "dates, ...), primary_type, types, repository, uri, publish, suppressed, created_by, last_modified_by, " +
        "create_time, system_mtime, user_mtime. Case and diacritics are ignored; English words are stemmed.",
      { type: "string", maxLength: 4096 },
    ),
    ...(route.types === undefined ? [arrayParameter("type", "Only records of these types (`agent`: any agent).")] : []),
    parameter(
      "sort",
      "`score desc` (the default): by relevance (BM25 over the query's terms, title and identifier weighed " +
        "above the rest; ties by title). Or comma-separated `field asc|desc`: title_sort, identifier, " +
        "primary_type, repository, create_time, system_mtime, user_mtime, uri.",
      { type: "string" },
    ),
    arrayParameter("filter_query", "Lucene queries every result must also match."),
    parameter(
      "aq",
      'ArchivesSpace\'s advanced query JSON (`{"query": {"jsonmodel_type": "boolean_query", ...}}`: ' +
        "boolean_query, field_query, date_field_query, boolean_field_query, range_query), used when `q` is not given.",
      { type: "string", maxLength: ADVANCED_MAX_BYTES },
    ),
    parameter("filter", "An advanced query JSON every result must also match, its values taken literally.", {
      type: "string",
      maxLength: ADVANCED_MAX_BYTES,
    }),
    arrayParameter("exclude", "Uris of records to leave out."),
    arrayParameter("fields", "Only these fields of each result."),
    arrayParameter(
      "facet",
      `Count the matching records' values of these fields (at most ${MAX_FACETS}): primary_type, types, ` +
        "repository, publish, suppressed, created_by, last_modified_by, and those the types declare (level, " +
        `subjects, creators, agents); each as Solr's flat [value, count, ...], by count, at most ${FACET_LIMIT}.`,
    ),
    parameter("root_record", "Only the components of this tree: a resource's or digital object's uri.", {
      type: "string",
    }),
    parameter(
      "hl",
      "`true`: `highlighting` gives, per result uri, per field, up to three snippets of its text with the " +
        "matching words in `<em>`.",
      { type: "string", pattern: "^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$" },
    ),
    arrayParameter(
      "resolve",
      `Search-style \`source:target\` (at most ${MAX_RESOLVE}): each result holding a uri in source (repository, ` +
        "uri, id) gets `_resolved_<source>`: `{uri: [that record's document]}` (target id or uri), null when none " +
        "is found.",
    ),
    ...(route.path.includes(":repo_id")
      ? [
          parameter(
            "dt",
            `\`csv\`: every result (to ${CSV_MAX_ROWS}, not only the page) as CSV, columns \`fields[]\` or ` +
              `${CSV_COLUMNS.join(", ")}; a value starting as a spreadsheet formula is prefixed with a quote.`,
            { type: "string", enum: ["csv"] },
          ),
        ]
      : []),
    parameter("facet_mincount", "The least count a facet value is shown with (values with none are never shown).", {
      type: "integer",
      minimum: 0,
    }),
    { ...parameter("all_ids", "ArchivesSnake's probe: with no `page`, page 1.", { type: "string" }) },
  ];
}

function envelope(ctx: DocumentContext): Response {
  return jsonResponse(
    "One page of results, in ArchivesSpace's envelope; each result's `json` is its record as the caller may read " +
      "it, as a JSON string. `last_page` is 0 when nothing matched.",
    ctx.component("SearchPage", {
      type: "object",
      required: [
        "page_size",
        "first_page",
        "last_page",
        "this_page",
        "offset_first",
        "offset_last",
        "total_hits",
        "results",
        "facets",
      ],
      properties: {
        page_size: { type: "integer" },
        first_page: { type: "integer" },
        last_page: { type: "integer" },
        this_page: { type: "integer" },
        offset_first: { type: "integer" },
        offset_last: { type: "integer" },
        total_hits: { type: "integer" },
        results: {
          type: "array",
          items: {
            type: "object",
            required: ["id", "uri", "title", "primary_type", "types", "json", "jsonmodel_type"],
            properties: {
              id: { type: "string" },
              uri: { type: "string" },
              title: { type: "string" },
              primary_type: { type: "string" },
              types: STRINGS,
              json: { type: "string", description: "The record, as JSON text." },
              repository: { type: "string" },
              identifier: { type: "string" },
              publish: { type: "boolean" },
              suppressed: { type: "boolean" },
              jsonmodel_type: { type: "string" },
            },
          },
        },
        facets: { type: "object" },
      },
    }),
  );
}

export function describeSearch(ctx: DocumentContext, route: SearchRoute, method: HttpMethod): RouteOperation {
  const scoped = route.path.includes(":repo_id");
  const operationId = `search${route.path.replace(/[^a-z]+/gi, "_")}${method === "post" ? "_post" : ""}`;
  return {
    operationId,
    summary: route.summary,
    description:
      `ArchivesSpace's \`${route.path}\`${method === "post" ? " (the parameters in a form body or the query)" : ""}. ` +
      (scoped ? "Suppressed records are left out for callers who may not see them, as ArchivesSpace does. " : "") +
      `Needs \`${route.permission}\`` +
      (scoped ? " in the repository (or globally)." : " (held globally)."),
    tag: SEARCH,
    ...(scoped && { pathParameters: [idPathParameter("repo_id", "The repository's id.")] }),
    parameters: parameters(route),
    responses: {
      "200": scoped
        ? {
            ...envelope(ctx),
            content: {
              ...envelope(ctx).content,
              "text/csv": { schema: { type: "string", description: "With dt=csv." } },
            },
          }
        : envelope(ctx),
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      ...(scoped && { "404": notFoundResponse(ctx, ["Repository"]) }),
      ...commonResponses(),
    },
    security: ctx.security(route.permission),
  };
}

export function describeRecordsByUri(ctx: DocumentContext, method: HttpMethod, max: number): RouteOperation {
  return {
    operationId: `search_records${method === "post" ? "_post" : ""}`,
    summary: "Index documents of records named by uri",
    description:
      `ArchivesSpace's \`/search/records\`: the documents of the records at \`uri[]\` (at most ${max}), in the ` +
      "order named, as one page; a uri of no record, or of one the caller may not read, is left out. Needs " +
      "`view_all_records`.",
    tag: SEARCH,
    parameters: [{ ...arrayParameter("uri", "The records' uris."), required: true }],
    responses: {
      "200": envelope(ctx),
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      ...commonResponses(),
    },
    security: ctx.security("view_all_records"),
  };
}

export function describeTypeCounts(ctx: DocumentContext, method: HttpMethod): RouteOperation {
  return {
    operationId: `search_record_types_by_repository${method === "post" ? "_post" : ""}`,
    summary: "How many records of each type each repository holds",
    description:
      "ArchivesSpace's `/search/record_types_by_repository`: with `repo_uri`, `{type: count}` for that repository; " +
      "without, `{repository uri: {type: count}}` for every repository holding any. Needs `view_all_records`.",
    tag: SEARCH,
    parameters: [
      { ...arrayParameter("record_types", "The record types to count."), required: true },
      parameter("repo_uri", "Only this repository.", { type: "string" }),
    ],
    responses: {
      "200": jsonResponse("The counts.", { type: "object" }),
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      ...commonResponses(),
    },
    security: ctx.security("view_all_records"),
  };
}

export function describeTopContainerSearch(ctx: DocumentContext, max: number): RouteOperation {
  return {
    operationId: "search_top_containers",
    summary: "Search a repository's top containers",
    description:
      "ArchivesSpace's `top_containers/search`: every top container matching `q` (at most " +
      `${max}, by relevance), answered as Solr answers (\`response.docs\`, \`numFound\`, \`facet_counts\`, ` +
      "`highlighting`), not paged. Needs `view_repository` in the repository.",
    tag: SEARCH,
    pathParameters: [idPathParameter("repo_id", "The repository's id.")],
    parameters: [
      parameter("q", "A Lucene query, as the other searches take it.", { type: "string", maxLength: 4096 }),
      arrayParameter("facet", "Count the matching containers' values of these fields."),
    ],
    responses: {
      "200": jsonResponse("Solr's answer.", {
        type: "object",
        required: ["responseHeader", "response"],
        properties: {
          responseHeader: { type: "object" },
          response: {
            type: "object",
            properties: { numFound: { type: "integer" }, start: { type: "integer" }, docs: { type: "array" } },
          },
          facet_counts: { type: "object" },
          highlighting: { type: "object" },
        },
      }),
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      "404": notFoundResponse(ctx, ["Repository"]),
      ...commonResponses(),
    },
    security: ctx.security("view_repository"),
  };
}
