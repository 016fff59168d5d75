// How the term reads (routes.ts) are described in /openapi.json.
import {
  commonResponses,
  idPathParameter,
  jsonResponse,
  notFoundResponse,
  responseRef,
  type DocumentContext,
  type Schema,
  type Tag,
} from "../http/api-description.js";
import type { RouteOperation } from "../http/described-route.js";
import type { RecordType } from "../registry/index.js";
import { TERM_PAGE_SIZE, TERM_PREFIX_MAX } from "./terms.js";

export const VOCABULARY = "vocabulary";

const TERMS: Tag = {
  name: "term",
  description:
    "ArchivesSpace's terms: the distinct (term, term_type, vocabulary) of the subjects, which embed their terms in Arca.",
};

function term(ctx: DocumentContext): Schema {
  return ctx.component("Term", {
    type: "object",
    required: ["jsonmodel_type", "term", "term_type", "vocabulary"],
    properties: {
      jsonmodel_type: { const: "term" },
      term: { type: "string" },
      term_type: { type: "string" },
      vocabulary: { type: "string", description: "The vocabulary's uri." },
    },
  });
}

function permissionNote(vocabulary: RecordType): string {
  const code = vocabulary.permissions.read;
  return code === null ? "Needs a session." : `Needs a session whose user holds \`${code}\`.`;
}

export function describeVocabularyTerms(
  ctx: DocumentContext,
  vocabulary: RecordType,
  termsMax: number,
): RouteOperation {
  return {
    operationId: "list_vocabulary_terms",
    summary: "The terms of a vocabulary",
    description:
      "ArchivesSpace's `GET /vocabularies/:id/terms`: every distinct term its subjects use, by term then term type. " +
      `At most ${termsMax} (\`VOCABULARY_TERMS_MAX\`); past it a 400 (look terms up by prefix with \`GET /terms\`). ${permissionNote(vocabulary)}`,
    tag: TERMS,
    pathParameters: [idPathParameter("id", "The vocabulary's id.")],
    responses: {
      "200": jsonResponse("The terms.", { type: "array", items: term(ctx) }),
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      "404": notFoundResponse(ctx, [vocabulary.title]),
      ...commonResponses(),
    },
    security: ctx.security(vocabulary.permissions.read),
  };
}

export function describePrefixTerms(ctx: DocumentContext, vocabulary: RecordType): RouteOperation {
  return {
    operationId: "list_terms_by_prefix",
    summary: "Terms starting with a prefix",
    description:
      "ArchivesSpace's `GET /terms`: the first " +
      `${TERM_PAGE_SIZE} distinct terms of every vocabulary starting with \`q\` (case ignored, \`%\` dropped), by ` +
      `term, as one page of ArchivesSpace's listing; \`total\` counts them all. ${permissionNote(vocabulary)}`,
    tag: TERMS,
    parameters: [
      {
        name: "q",
        in: "query",
        required: true,
        description: "The prefix.",
        schema: { type: "string", maxLength: TERM_PREFIX_MAX },
      },
    ],
    responses: {
      "200": jsonResponse("One page of terms.", {
        type: "object",
        required: ["first_page", "last_page", "this_page", "total", "results"],
        properties: {
          first_page: { const: 1 },
          last_page: { const: 1 },
          this_page: { const: 1 },
          total: { type: "integer", minimum: 0 },
          results: { type: "array", items: term(ctx), maxItems: TERM_PAGE_SIZE },
        },
      }),
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      ...commonResponses(),
    },
    security: ctx.security(vocabulary.permissions.read),
  };
}
