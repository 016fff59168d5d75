// The enumeration operations, transport-free like the record operations: list, read (by id,
// by name, one value by id), create, and update. An update's `values` is the enumeration's new
// list in its new order: values it lacks are removed, new ones added, the rest reordered.
// A value is removed only when no record holds it (409 naming one that does) and it is not
// read-only (a value the schemas rely on: 409). Every write invalidates the values cache, so
// the next record write in this process validates against the new list.
import { hasPermissionAnywhere } from "../../auth/permissions.js";
import { accessDenied, badRequest, conflict, notFound } from "../../errors/api-error.js";
import type { Actor, WriteResult } from "../types.js";
import { createStamp, updateStamp } from "../operations/stamps.js";
import { LOCK_VERSION_MISSING, LOCK_VERSION_STALE, lockVersionOf } from "../operations/update.js";
import type { JsonObject } from "../../registry/json.js";
import type { Registry } from "../../registry/registry.js";
import type { RecordValidator } from "../../registry/validation.js";
import type { RecordStore } from "../../storage/record-store.js";
import type { EnumerationCache } from "./cache.js";
import { enumerationInputReader, type EnumerationInput } from "./input.js";
import { enumerationUri, shapeEnumeration, shapeEnumerationValue } from "./shape.js";
import type { StoredEnumeration, StoredValue } from "./store.js";
import { findValueUser } from "./usage.js";

/** The permission code every enumeration write needs (ArchivesSpace's). */
export const UPDATE_ENUMERATION = "update_enumeration_record";

export const ENUMERATION_NOT_FOUND = "Enumeration";
export const ENUMERATION_VALUE_NOT_FOUND = "Enumeration value";

export interface EnumerationDeps {
  registry: Registry;
  /** The records' validator: enumeration bodies are checked by its Ajv, with its error shape. */
  validator: RecordValidator;
  /** The records, searched for a value before it is removed. */
  records: RecordStore;
  cache: EnumerationCache;
  now: () => Date;
}

/**
 * Reading takes someone logged in; writing takes update_enumeration_record, held globally or in
 * any repository: enumerations are shared by every repository, as agents and subjects are, and the
 * standard repository groups grant it, as in ArchivesSpace. Trusted code may do either.
 * @throws ApiError 403
 */
function assertMay(actor: Actor, write: boolean): void {
  if (actor.kind === "trusted") return;
  if (actor.kind === "anonymous") throw accessDenied();
  if (write && !hasPermissionAnywhere(actor.permissions, UPDATE_ENUMERATION)) throw accessDenied();
}

export class EnumerationOperations {
  private readonly parse: (raw: unknown) => EnumerationInput;

  constructor(private readonly deps: EnumerationDeps) {
    this.parse = enumerationInputReader(deps.validator);
  }

  private get store() {
    return this.deps.cache.store;
  }

  private shape(doc: StoredEnumeration): JsonObject {
    return shapeEnumeration(doc, this.deps.registry.enumerations.get(doc.name));
  }

  /** Every enumeration, in id order. */
  async list(actor: Actor): Promise<JsonObject[]> {
    assertMay(actor, false);
    return (await this.store.all()).map((doc) => this.shape(doc));
  }

  async read(id: number, actor: Actor): Promise<JsonObject> {
    assertMay(actor, false);
    const doc = await this.store.byId(id);
    if (!doc) throw notFound(ENUMERATION_NOT_FOUND);
    return this.shape(doc);
  }

  async readByName(name: string, actor: Actor): Promise<JsonObject> {
    assertMay(actor, false);
    const doc = await this.store.byName(name);
    if (!doc) throw notFound(ENUMERATION_NOT_FOUND);
    return this.shape(doc);
  }

  async readValue(valueId: number, actor: Actor): Promise<JsonObject> {
    assertMay(actor, false);
    const doc = await this.store.byValueId(valueId);
    const value = doc ? shapeEnumerationValue(doc, valueId, this.deps.registry.enumerations.get(doc.name)) : undefined;
    if (!value) throw notFound(ENUMERATION_VALUE_NOT_FOUND);
    return value;
  }

  async create(raw: unknown, actor: Actor): Promise<WriteResult> {
    assertMay(actor, true);
    const input = this.parse(raw);
    const now = this.deps.now();
    const [id] = await this.store.enumerationIds(1);
    const valueIds = await this.store.valueIds(input.values.length);
    const doc: StoredEnumeration = {
      id: id!,
      name: input.name,
      ...(input.default_value === undefined ? {} : { default_value: input.default_value }),
      values: input.values.map((value, i) => ({ id: valueIds[i]!, value })),
      seeded: [],
      lock_version: 0,
      ...createStamp(actor, now),
    };
    if (!(await this.store.insert(doc))) throw badRequest({ name: ["That name is already in use"] });
    this.deps.cache.invalidate();
    return { status: "Created", id: doc.id, lock_version: 0, stale: null, uri: enumerationUri(doc.id), warnings: [] };
  }

  async update(id: number, raw: unknown, actor: Actor): Promise<WriteResult> {
    assertMay(actor, true);
    const lockVersion = lockVersionOf(raw);
    if (lockVersion === undefined) throw conflict(LOCK_VERSION_MISSING);
    const existing = await this.store.byId(id);
    if (!existing) throw notFound(ENUMERATION_NOT_FOUND);
    const input = this.parse(raw);
    if (input.name !== existing.name)
      throw badRequest({ name: [`An enumeration's name cannot be changed (this one is ${existing.name})`] });
    if (lockVersion !== existing.lock_version) throw conflict(LOCK_VERSION_STALE);
    const kept = new Map(existing.values.map((value) => [value.value, value]));
    const removed = existing.values.filter((value) => !input.values.includes(value.value)).map((value) => value.value);
    const added = input.values.filter((value) => !kept.has(value));
    if (
      this.deps.registry.enumerations.get(existing.name)?.editable === false &&
      (added.length > 0 || removed.length > 0)
    ) {
      throw conflict(`${existing.name} is not editable: its values can be reordered, not added or removed`);
    }
    await this.assertRemovable(existing.name, removed);
    const addedIds = await this.store.valueIds(added.length);
    const values: StoredValue[] = input.values.map(
      (value) => kept.get(value) ?? { id: addedIds[added.indexOf(value)]!, value },
    );
    const change = { values, ...(input.default_value === undefined ? {} : { default_value: input.default_value }) };
    if (!(await this.store.update(id, lockVersion, change, updateStamp(actor, this.deps.now()))))
      throw conflict(LOCK_VERSION_STALE);
    this.deps.cache.invalidate();
    return { status: "Updated", id, lock_version: lockVersion + 1, stale: null, uri: enumerationUri(id), warnings: [] };
  }

  /** @throws ApiError 409 for a read-only value or one a record holds */
  private async assertRemovable(name: string, removed: readonly string[]): Promise<void> {
    const readonly = this.deps.registry.enumerations.get(name)?.readonlyValues ?? [];
    const fixed = removed.find((value) => readonly.includes(value));
    if (fixed !== undefined)
      throw conflict(`Can't remove the read-only value '${fixed}' of ${name}: the record types rely on it`);
    for (const value of removed) {
      const user = await findValueUser(this.deps.registry, this.deps.records, name, value);
      if (user)
        throw conflict(`Can't remove the value '${value}' of ${name}: it is in use by ${user.uri} (${user.path})`);
    }
  }
}
