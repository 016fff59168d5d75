// List (docs/api.md §5): a page with its envelope, a set of ids, or all ids, always confined
// to the repository in the URL. The store's indexes ({repo_id, id}, {repo_id, system_mtime})
// keep the cost of a page independent of the collection size and of the page number.
import { badRequest } from "../../errors/api-error.js";
import { dictionary, type JsonObject, type RecordType } from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";
import { addLinkedFields } from "../computed/linked-fields.js";
import type { OperationDeps } from "../deps.js";
import { readWithin } from "./bounded-read.js";
import { readManyWithLinks } from "./read-with-links.js";
import { permittedType, requireRepository } from "./locate.js";
import { resolveRefs } from "./resolve.js";
import { shapeRecord } from "./shape.js";
import { hiddenFilter } from "./suppression.js";
import type { Actor, ListQuery, ListResult, Scope } from "../types.js";

/** Fields a list can sort by without sorting the whole repository: those an index orders. */
export function sortableFields(type: RecordType): string[] {
  const fields = new Set(["id", "system_mtime"]);
  for (const index of type.indexes) {
    if (index.unique) continue;
    const keys = Object.keys(index.keys).filter((key) => key !== "repo_id");
    // A path into sub-records (`names.sort_name`) serves lookups only: it may hold several values per record, and
    // a page boundary needs one.
    if (keys.length === 2 && keys[1] === "id" && !keys[0].includes(".")) fields.add(keys[0]);
  }
  return [...fields];
}

const tooLargeFor = (parameter: string) => (maxBytes: number) =>
  badRequest(
    dictionary([
      [
        parameter,
        [`These records are more than ${maxBytes} bytes together (RESPONSE_MAX_BYTES); ask for fewer at a time`],
      ],
    ]),
  );

export async function listRecords(
  deps: OperationDeps,
  typeName: string,
  scope: Scope,
  query: ListQuery,
  actor: Actor,
): Promise<ListResult> {
  const type = permittedType(deps, typeName, scope, actor, "read");
  if (query.sortField !== undefined && !sortableFields(type).includes(query.sortField)) {
    throw badRequest({
      sort_field: [`Cannot sort by '${query.sortField}'; sortable fields: ${sortableFields(type).join(", ")}`],
    });
  }
  const collection = deps.store.collection(type.name);
  const filter: Record<string, unknown> = {
    ...(type.scope === "repository" ? { repo_id: scope.repoId } : {}),
    ...hiddenFilter(type, actor, scope.repoId),
  };
  if (query.modifiedSince !== undefined) filter.system_mtime = { $gte: new Date(query.modifiedSince * 1000) };
  if (query.excludeIds !== undefined && query.excludeIds.length > 0) filter.id = { $nin: query.excludeIds };
  // Fields the schema declares (x-list-filters), each matched as text: never an operator.
  for (const { field, value } of query.filters ?? []) {
    if (type.listFilters.includes(field)) filter[field] = { $eq: value };
  }
  const direction = query.sortDirection === "desc" ? -1 : 1;
  const sort: Record<string, 1 | -1> =
    query.sortField && query.sortField !== "id" ? { [query.sortField]: direction, id: direction } : { id: direction };

  const shapeAll = async (
    stored: StoredRecord[],
    prefetched?: ReadonlyMap<string, StoredRecord[]>,
  ): Promise<{ records: JsonObject[]; truncated: boolean }> => {
    const records = stored.map((doc) => shapeRecord(deps.registry, type, doc, actor));
    await addLinkedFields(deps, type, stored, records, prefetched);
    return { records, truncated: await resolveRefs(deps, records, query.resolve ?? [], actor) };
  };

  switch (query.mode.kind) {
    case "allIds": {
      const docs = await collection
        .find(filter, { projection: { id: 1 } })
        .sort({ id: 1 })
        .toArray();
      // Nothing found: say so if it is because the repository does not exist.
      if (docs.length === 0) await requireRepository(deps, type, scope);
      return docs.map((doc) => doc.id);
    }
    case "all": {
      const docs = await readWithin(collection.find(filter).sort(sort), deps.responseMaxBytes, tooLargeFor("page"));
      if (docs.length === 0) await requireRepository(deps, type, scope);
      return (await shapeAll(docs)).records;
    }
    case "idSet": {
      // Beside the $nin of excluded ids, when there are any.
      const ids = { ...(filter.id as object | undefined), $in: query.mode.ids };
      const read = (rows: AsyncIterable<StoredRecord>) =>
        readWithin(rows, deps.responseMaxBytes, tooLargeFor("id_set"));
      const excluded = new Set(query.excludeIds ?? []);
      const uris = query.mode.ids
        .filter((id) => !excluded.has(id))
        .map((id) => deps.registry.uriFor(type.name, id, scope.repoId));
      // With the records linking to them for their bare incoming fields, in the same round trip.
      const withLinks = await readManyWithLinks(deps, type, { ...filter, id: ids }, uris, { id: 1 }, read);
      const docs = withLinks?.docs ?? (await read(collection.find({ ...filter, id: ids }).sort({ id: 1 })));
      if (docs.length === 0) await requireRepository(deps, type, scope);
      return (await shapeAll(docs, withLinks?.prefetched)).records;
    }
    case "page": {
      const { page, pageSize } = query.mode;
      const total = await collection.countDocuments(filter);
      if (total === 0) await requireRepository(deps, type, scope);
      const docs = await readWithin(
        collection
          .find(filter)
          .sort(sort)
          .skip((page - 1) * pageSize)
          .limit(pageSize),
        deps.responseMaxBytes,
        tooLargeFor("page_size"),
      );
      const { records, truncated } = await shapeAll(docs);
      const envelope = {
        first_page: 1,
        last_page: Math.max(1, Math.ceil(total / pageSize)),
        this_page: page,
        total,
        results: records,
      };
      return truncated ? { ...envelope, _resolve_truncated: true } : envelope;
    }
  }
}
