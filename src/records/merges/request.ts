// Reading a merge request's body: `{"target": {"ref"}, "victims": [{"ref"}, ...]}` as ArchivesSpace 2.x names them,
// or `{"merge_destination": {"ref"}, "merge_candidates": [...]}` as its later versions do (common/schemas/
// merge_request.rb); either is taken. A malformed body is a 400 naming the field, as a record's is.
import { badRequest } from "../../errors/api-error.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../../registry/json.js";
import { addFieldError, fieldErrors } from "../../registry/validation-errors.js";

/** The most records one request may merge into its target: a request stays one bounded transaction. */
export const MAX_VICTIMS = 250;

export interface MergeRefs {
  /** The uri of the record the others merge into. */
  target: string;
  /** The uris of the records merged into it, each once, in the order sent. */
  victims: string[];
  /** The body's `selections` (the agent detail merge's), when it has one. */
  selections: JsonObject | undefined;
}

const REQUIRED = "Property is required but was missing";

/** The uri of a `{ref}` object at `path`, or a problem noted in `errors`. */
function refAt(value: JsonValue | undefined, path: string, errors: Record<string, string[]>): string | undefined {
  if (value === undefined || value === null) return void addFieldError(errors, path, REQUIRED);
  if (!isJsonObject(value)) return void addFieldError(errors, path, "Must be an object with a ref");
  const ref = value.ref;
  if (typeof ref !== "string" || ref === "")
    return void addFieldError(errors, `${path}/ref`, ref === undefined ? REQUIRED : "Must be a uri");
  return ref;
}

/**
 * The refs of a merge request body.
 * @throws ApiError 400 naming the field: no object, no target, no victims, more than MAX_VICTIMS, a ref not a string
 */
export function readMergeRefs(body: unknown): MergeRefs {
  const errors = fieldErrors();
  if (!isJsonObject(body)) throw badRequest({ record: ["Must be a merge request object"] });
  const later = body.merge_destination !== undefined || body.merge_candidates !== undefined;
  const [targetName, victimsName] = later ? ["merge_destination", "merge_candidates"] : ["target", "victims"];
  const target = refAt(later ? body.merge_destination : body.target, targetName, errors);
  const list = later ? body.merge_candidates : body.victims;
  const victims: string[] = [];
  if (list === undefined || list === null) addFieldError(errors, victimsName, REQUIRED);
  else if (!Array.isArray(list) || list.length === 0)
    addFieldError(errors, victimsName, "Must be a list of at least one {ref}");
  else if (list.length > MAX_VICTIMS) addFieldError(errors, victimsName, `At most ${MAX_VICTIMS} records at once`);
  else
    list.forEach((item, index) => {
      const uri = refAt(item, `${victimsName}/${index}`, errors);
      if (uri !== undefined && !victims.includes(uri)) victims.push(uri);
    });
  const selections = body.selections;
  if (selections !== undefined && selections !== null && !isJsonObject(selections))
    addFieldError(errors, "selections", "Must be an object");
  if (Object.keys(errors).length > 0 || target === undefined) throw badRequest(errors);
  return { target, victims, selections: isJsonObject(selections) ? selections : undefined };
}
