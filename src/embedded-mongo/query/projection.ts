// Projections through mingo, which implements inclusion, exclusion and the projection
// operators; stored documents are not modified (mingo builds new objects).
import type { Document } from "bson";
import { Query } from "mingo";
import { badValue } from "../errors.js";

export function project(docs: Document[], projection: Document | undefined, filter: Document = {}): Document[] {
  if (!projection || Object.keys(projection).length === 0) return docs;
  try {
    return new Query(filter, {}).find<Document>(docs, projection).all();
  } catch (error) {
    throw badValue(error instanceof Error ? error.message : String(error));
  }
}
