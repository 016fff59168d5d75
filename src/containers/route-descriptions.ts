// How the container and location bulk routes (routes.ts) are described in /openapi.json.
import {
  booleanParameter,
  commonResponses,
  conflictResponse,
  idPathParameter,
  jsonContent,
  jsonResponse,
  notFoundResponse,
  responseRef,
  type DocumentContext,
  type Parameter,
  type Response,
  type Schema,
  type Tag,
} from "../http/api-description.js";
import type { RouteOperation } from "../http/described-route.js";
import { LOCK_VERSION_STALE } from "../records/operations/update.js";
import { MANAGE_CONTAINERS } from "./top-container-bulk.js";

const BULK: Tag = {
  name: "containers and locations in bulk",
  description:
    "ArchivesSpace's top container bulk and batch edits and location batches: each one write of every record it " +
    "names (all or nothing), each record checked as an update checks it and its `lock_version` moved on.",
};

const CONTAINER_PERMISSION = `Needs \`update_container_record\` and \`${MANAGE_CONTAINERS}\` in the repository, as ArchivesSpace's routes do.`;
const LOCATION_PERMISSION = "Needs `update_location_record` (granted in any repository).";
const BOUND = "At most `BULK_MAX_RECORDS` records per call (1000 unless set); more is a 400.";

const ids = { type: "array", items: { type: "integer" } } as const satisfies Schema;
const uris = { type: "array", items: { type: "string" } } as const satisfies Schema;

function uriMapBody(what: string, example: Record<string, string | null>): RouteOperation["requestBody"] {
  return {
    required: true,
    description: `A JSON object: each top container's uri to its ${what}.`,
    content: jsonContent({ type: "object", additionalProperties: { type: ["string", "null"] } }, example),
  };
}

function containerResponses(ctx: DocumentContext, ok: Response, conflictNote = ""): Record<string, unknown> {
  return {
    "200": ok,
    "400": jsonResponse(
      "A bad body or parameter (named), or a container the change would make invalid (its problems, with its `uri`).",
      { type: "object", required: ["error"], properties: { error: {}, uri: { type: "string" } } },
    ),
    "403": responseRef("AccessDenied"),
    "404": notFoundResponse(ctx, ["TopContainer", "Repository"], "A missing container's `uri` is given beside."),
    "409": conflictResponse(ctx, `Another write changed a container meanwhile.${conflictNote}`, LOCK_VERSION_STALE),
    ...commonResponses(),
  };
}

function containerOperation(
  ctx: DocumentContext,
  fields: { operationId: string; summary: string; description: string },
  rest: Pick<RouteOperation, "requestBody" | "parameters">,
  ok: Response,
  conflictNote?: string,
): RouteOperation {
  return {
    ...fields,
    ...rest,
    description: `${CONTAINER_PERMISSION} ${fields.description} ${BOUND}`,
    tag: BULK,
    pathParameters: [idPathParameter("repo_id", "The repository's id.")],
    responses: containerResponses(ctx, ok, conflictNote) as RouteOperation["responses"],
    security: ctx.security(MANAGE_CONTAINERS),
  };
}

const updatedIds = (description: string) =>
  jsonResponse(
    description,
    { type: "object", required: ["updated"], properties: { updated: ids } },
    { updated: [1, 2] },
  );

export function describeBulkBarcodes(ctx: DocumentContext): RouteOperation {
  return containerOperation(
    ctx,
    {
      operationId: "top_containers_bulk_barcodes",
      summary: "Set the barcodes of many top containers",
      description: '`null` or `""` takes a barcode away. Barcodes may move between the containers named.',
    },
    { requestBody: uriMapBody("barcode", { "/repositories/2/top_containers/1": "39002000123456" }) },
    updatedIds("The ids of the containers updated."),
    " Or a barcode another container of the repository has, or given twice: `A barcode must be unique within a repository: <barcodes>`.",
  );
}

export function describeBulkIndicators(ctx: DocumentContext): RouteOperation {
  return containerOperation(
    ctx,
    {
      operationId: "top_containers_bulk_indicators",
      summary: "Set the indicators of many top containers",
      description: 'A container given `null` or `""` is left as it is (and not listed), as ArchivesSpace skips it.',
    },
    { requestBody: uriMapBody("indicator", { "/repositories/2/top_containers/1": "12" }) },
    updatedIds("The ids of the containers updated."),
  );
}

const locationsUpdated = jsonResponse(
  "The containers updated.",
  {
    type: "object",
    required: ["records_ids_updated", "records_updated"],
    properties: { records_ids_updated: ids, records_updated: { type: "integer" } },
  },
  { records_ids_updated: [1], records_updated: 1 },
);

export function describeBulkLocations(ctx: DocumentContext): RouteOperation {
  return containerOperation(
    ctx,
    {
      operationId: "top_containers_bulk_locations",
      summary: "Set the current locations of many top containers",
      description:
        "Each container's current location(s) are replaced by the one given, from today (`status: current`); its " +
        "previous ones are kept. `null` leaves it with no current location. A location that does not exist is a " +
        "400 naming `location_data`.",
    },
    { requestBody: uriMapBody("location's uri", { "/repositories/2/top_containers/1": "/locations/3" }) },
    locationsUpdated,
  );
}

const countUpdated = jsonResponse(
  "How many containers were updated.",
  { type: "object", required: ["records_updated"], properties: { records_updated: { type: "integer" } } },
  { records_updated: 3 },
);

const idsParameter: Parameter = {
  name: "ids[]",
  in: "query",
  required: true,
  description: "The containers' ids (also as a repeated `ids`, or in a form body).",
  schema: ids,
  style: "form",
  explode: true,
};

function textParameter(name: string, description: string): Parameter {
  return { name, in: "query", required: true, description, schema: { type: "string" } };
}

export function describeBatchLocation(ctx: DocumentContext): RouteOperation {
  return containerOperation(
    ctx,
    {
      operationId: "top_containers_batch_location",
      summary: "Give many top containers one current location",
      description:
        "Each container's current location(s) are replaced by `location_uri` from today; an empty `location_uri` " +
        "leaves them with none. A location that does not exist is a 400 naming `location_uri`.",
    },
    { parameters: [idsParameter, textParameter("location_uri", "The location's uri, e.g. `/locations/3`.")] },
    countUpdated,
  );
}

export function describeBatchContainerProfile(ctx: DocumentContext): RouteOperation {
  return containerOperation(
    ctx,
    {
      operationId: "top_containers_batch_container_profile",
      summary: "Give many top containers one container profile",
      description:
        "An empty `container_profile_uri` takes the profile away. A profile that does not exist is a 400 naming it.",
    },
    {
      parameters: [
        idsParameter,
        textParameter("container_profile_uri", "The profile's uri, e.g. `/container_profiles/1`."),
      ],
    },
    countUpdated,
  );
}

export function describeBatchIlsHoldingId(ctx: DocumentContext): RouteOperation {
  return containerOperation(
    ctx,
    {
      operationId: "top_containers_batch_ils_holding_id",
      summary: "Give many top containers one ILS holding id",
      description: "The value is trimmed; an empty one takes the field away.",
    },
    { parameters: [idsParameter, textParameter("ils_holding_id", "The ILS holding id.")] },
    countUpdated,
  );
}

function locationResponses(ctx: DocumentContext, ok: Response, notFound: boolean): RouteOperation["responses"] {
  return {
    "200": ok,
    "400": responseRef("BadRequest"),
    "403": responseRef("AccessDenied"),
    ...(notFound && { "404": notFoundResponse(ctx, ["Location"], "The missing location's `uri` is given beside.") }),
    ...(notFound && {
      "409": conflictResponse(ctx, "Another write changed a location meanwhile.", LOCK_VERSION_STALE),
    }),
    ...commonResponses(),
  } as RouteOperation["responses"];
}

const range = {
  type: "object",
  required: ["label", "start", "end"],
  properties: {
    label: { type: "string" },
    start: { type: "string", description: "A whole number or a single letter." },
    end: { type: "string", description: "Of the same kind as start, not before it." },
    prefix: { type: "string" },
    suffix: { type: "string" },
  },
} as const satisfies Schema;

export function describeLocationBatch(ctx: DocumentContext): RouteOperation {
  return {
    operationId: "locations_batch",
    summary: "Create many locations from a template and coordinate ranges",
    description:
      `${LOCATION_PERMISSION} The body is a location (the template) with \`coordinate_1_range\` (required), and ` +
      "optionally `coordinate_2_range` and `coordinate_3_range`: one location is made for each combination of " +
      "their values (`<prefix><value><suffix>` as each coordinate's indicator, the range's label as its label). " +
      "Every location is checked as a create before any is written. Answers the new locations' uris, or with " +
      `\`dry_run=true\` their titles, writing nothing. ${BOUND}`,
    tag: BULK,
    parameters: [booleanParameter("dry_run", "List the titles of the locations it would make; write nothing.")],
    requestBody: {
      required: true,
      content: jsonContent(
        {
          type: "object",
          required: ["building", "coordinate_1_range"],
          properties: { coordinate_1_range: range, coordinate_2_range: range, coordinate_3_range: range },
          additionalProperties: true,
        },
        { building: "Main", floor: "2", coordinate_1_range: { label: "Shelf", start: "1", end: "3" } },
      ),
    },
    responses: locationResponses(
      ctx,
      jsonResponse("The new locations' uris, or (dry run) their titles.", uris, ["/locations/1", "/locations/2"]),
      false,
    ),
    security: ctx.security("update_location_record"),
  };
}

export function describeLocationBatchUpdate(ctx: DocumentContext): RouteOperation {
  return {
    operationId: "locations_batch_update",
    summary: "Set the same fields on many locations",
    description:
      `${LOCATION_PERMISSION} The body is location fields and \`record_uris\`, the locations to change: each field ` +
      "given (not null or empty) replaces the location's, its other fields are kept. Every location is checked " +
      `as an update before any is written. Answers each location's update answer, in order. ${BOUND}`,
    tag: BULK,
    requestBody: {
      required: true,
      content: jsonContent(
        { type: "object", required: ["record_uris"], properties: { record_uris: uris }, additionalProperties: true },
        { record_uris: ["/locations/1", "/locations/2"], room: "201" },
      ),
    },
    responses: locationResponses(
      ctx,
      jsonResponse("Each location's update answer.", { type: "array", items: ctx.fixedRef("WriteResult") }),
      true,
    ),
    security: ctx.security("update_location_record"),
  };
}
