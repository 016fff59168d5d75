// ArchivesSpace's term reads (backend vocabulary.rb and term.rb):
//   GET /vocabularies/:id/terms   every term of a vocabulary
//   GET /terms?q=                 the first page of terms starting with a prefix
// Both need what reading a vocabulary needs (a session: vocabulary.schema.json's x-permissions).
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import type { AccessControl } from "../auth/access-control.js";
import { notFound } from "../errors/api-error.js";
import { Route } from "../http/described-route.js";
import { respond } from "../records/http/answer.js";
import { ParamReader, REQUIRED, requestParameters, throwIfAny } from "../records/http/list-params.js";
import { authorize } from "../records/http/route-guard.js";
import type { RecordOperations } from "../records/operations/index.js";
import { describePrefixTerms, describeVocabularyTerms, VOCABULARY } from "./descriptions.js";
import { TERM_PREFIX_MAX, termsWithPrefix, vocabularyTerms } from "./terms.js";

export interface TermRouteDeps {
  operations: RecordOperations;
  access: AccessControl;
  /** VOCABULARY_TERMS_MAX */
  termsMax: number;
}

const POSITIVE_ID = /^[1-9][0-9]{0,14}$/;

export function termControllers({ operations, access, termsMax }: TermRouteDeps): Array<new () => unknown> {
  const vocabulary = operations.deps.registry.get(VOCABULARY);

  @Controller("/")
  class TermController {
    @Route("get", "/vocabularies/:id/terms", (ctx) => describeVocabularyTerms(ctx, vocabulary, termsMax))
    ofVocabulary(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const raw = req.params.id;
        // Before the id is judged, as on record routes: someone who may not learns nothing from a 404.
        const actor = await authorize(access, vocabulary, "read", res, undefined);
        if (typeof raw !== "string" || !POSITIVE_ID.test(raw)) throw notFound(vocabulary.title);
        const id = Number(raw);
        await operations.read(VOCABULARY, {}, id, actor);
        return vocabularyTerms(operations.deps, operations.deps.registry.uriFor(VOCABULARY, id), termsMax);
      });
    }

    @Route("get", "/terms", (ctx) => describePrefixTerms(ctx, vocabulary))
    withPrefix(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        await authorize(access, vocabulary, "read", res, undefined);
        const reader = new ParamReader(requestParameters(req));
        const q = reader.scalar("q");
        if (q === undefined && reader.errors.q === undefined) reader.fail("q", REQUIRED);
        if (q !== undefined && q.length > TERM_PREFIX_MAX)
          reader.fail("q", `At most ${TERM_PREFIX_MAX} characters, not ${q.length}`);
        throwIfAny(reader.errors);
        return termsWithPrefix(operations.deps, q ?? "");
      });
    }
  }
  return [TermController];
}
