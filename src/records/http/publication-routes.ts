// How the publication and suppression routes (publication-controller.ts) are described in /openapi.json.
import {
  booleanParameter,
  commonResponses,
  idPathParameter,
  jsonResponse,
  notFoundResponse,
  responseRef,
  type DocumentContext,
  type Tag,
} from "../../http/api-description.js";
import type { RouteOperation } from "../../http/described-route.js";
import type { PublishRoute, RecordType } from "../../registry/index.js";
import { SUPPRESS_PERMISSION, SUPPRESSED_READ_ONLY } from "../operations/suppression.js";

const PUBLICATION: Tag = {
  name: "publication",
  description:
    "Publishing and suppression, as ArchivesSpace's `publish`, `unpublish` and `suppressed` routes: a record with its " +
    "sub-records and the tree below it, in one transaction.",
};

const SUPPRESSED_RESULT = {
  type: "object",
  required: ["status", "id", "suppressed_state"],
  properties: {
    status: { const: "Suppressed" },
    id: { type: "integer", minimum: 1 },
    suppressed_state: { type: "boolean" },
  },
};

function pathParameters(type: RecordType): RouteOperation["pathParameters"] {
  const record = idPathParameter("id", `The ${type.title.toLowerCase()}'s id.`);
  return type.scope === "repository" ? [idPathParameter("repo_id", "The repository's id."), record] : [record];
}

export function describePublish(type: RecordType, route: PublishRoute) {
  return (ctx: DocumentContext): RouteOperation => ({
    operationId: `${route}_${type.name}`,
    summary: `${route === "publish" ? "Publish" : "Unpublish"} a ${type.title.toLowerCase()} and all below it`,
    description:
      `Sets \`publish\` to ${route === "publish"} on the record, on each of its sub-records that has the flag ` +
      "(notes, subnotes, external documents, file versions ...) and on every tree node below it with theirs, in one " +
      "transaction; each record changed gets a new `lock_version`. Needs the type's update permission " +
      `(\`${type.permissions.update ?? "a session"}\`). No body. Answers as an update, with the record's lock_version.`,
    tag: PUBLICATION,
    security: ctx.security(type.permissions.update),
    pathParameters: pathParameters(type),
    responses: {
      "200": jsonResponse("Done.", {
        allOf: [ctx.fixedRef("WriteResult"), { properties: { status: { const: "Updated" } } }],
      }),
      "403": responseRef("AccessDenied"),
      "404": notFoundResponse(ctx, [type.title, "Repository"]),
      ...commonResponses(),
    },
  });
}

export function describeSuppress(type: RecordType) {
  return (ctx: DocumentContext): RouteOperation => ({
    operationId: `suppress_${type.name}`,
    summary: `Suppress or unsuppress a ${type.title.toLowerCase()} and all below it`,
    description:
      `Needs \`${SUPPRESS_PERMISSION}\` in the repository. Sets the record's suppressed state, and that of every tree ` +
      "node below it, in one transaction. A suppressed record is hidden (404 to a read; left out of lists, tree " +
      "views and resolve[]) from callers without `suppress_archival_record`, `manage_repository` or " +
      `\`view_suppressed\`, and cannot be updated until unsuppressed (409 "${SUPPRESSED_READ_ONLY}"). No body.`,
    tag: PUBLICATION,
    security: ctx.security(SUPPRESS_PERMISSION),
    pathParameters: pathParameters(type),
    parameters: [{ ...booleanParameter("suppressed", "The new state."), required: true }],
    responses: {
      "200": jsonResponse("Done.", ctx.component("SuppressedResult", SUPPRESSED_RESULT)),
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      "404": notFoundResponse(ctx, [type.title, "Repository"]),
      ...commonResponses(),
    },
  });
}
