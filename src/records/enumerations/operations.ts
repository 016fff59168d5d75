// The enumeration operations, transport-free like the record operations, as ArchivesSpace's
// enumeration controller has them (backend/app/controllers/enumeration.rb, model/enumeration.rb,
// enumeration_value.rb):
// - list, read (by id, by name, one value by id);
// - create, and update: `values` is the enumeration's new list in its new order: values it lacks
//   are removed (suppressed ones are kept: a client sends back `values`, which leaves them out),
//   new ones added, the rest reordered, positions renumbered from 0. A value is removed only when
//   no record holds it (409 naming one that does) and it is not read-only (409);
// - a value's update (its text, position or suppressed flag), its position alone (it swaps places
//   with the value at the target position), its suppressed flag alone. Suppressing a value hides
//   it from `values`; records may still hold and be saved with it, as in ArchivesSpace;
// - a migration: every use of one value, in every record type, moved to another, and the first
//   removed, in one transaction. A renamed value moves its uses the same way.
// Every write invalidates the values cache, so the next record write in this process validates
// against the new list.
import { hasPermissionAnywhere } from "../../auth/permissions.js";
import { accessDenied, badRequest, conflict, notFound } from "../../errors/api-error.js";
import type { Actor, WriteResult } from "../types.js";
import type { RecordChanges } from "../changes.js";
import { createStamp, updateStamp } from "../operations/stamps.js";
import { LOCK_VERSION_MISSING, LOCK_VERSION_STALE, lockVersionOf } from "../operations/update.js";
import type { JsonObject } from "../../registry/json.js";
import type { Registry } from "../../registry/registry.js";
import type { RecordValidator } from "../../registry/validation.js";
import type { RecordStore } from "../../storage/record-store.js";
import type { EnumerationCache } from "./cache.js";
import type { EnumerationDefinition } from "./definition.js";
import {
  enumerationInputReader,
  enumerationValueInputReader,
  migrationInputReader,
  type EnumerationInput,
  type EnumerationValueInput,
  type MigrationInput,
} from "./input.js";
import {
  ENUMERATIONS_PATH,
  enumerationUri,
  enumerationValueUri,
  shapeEnumeration,
  shapeEnumerationValue,
} from "./shape.js";
import { placedValues, renumbered, type PlacedValue, type StoredEnumeration, type StoredValue } from "./store.js";
import { findValueUser, moveValueUses } from "./usage.js";

/** The permission code every enumeration write needs (ArchivesSpace's). */
export const UPDATE_ENUMERATION = "update_enumeration_record";

export const ENUMERATION_NOT_FOUND = "Enumeration";
export const ENUMERATION_VALUE_NOT_FOUND = "Enumeration value";

/** What `POST /config/enumeration_values/:id/suppressed` answers (ArchivesSpace's suppressed_response). */
export interface SuppressedResult {
  status: "Suppressed";
  id: number;
  suppressed_state: boolean;
}

export interface EnumerationDeps {
  registry: Registry;
  /** The records' validator: enumeration bodies are checked by its Ajv, with its error shape. */
  validator: RecordValidator;
  /** The records: searched for a value before it is removed, rewritten by a migration. */
  records: RecordStore;
  /** Told of every record a migration rewrites, as of any update. */
  changes: RecordChanges;
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

/** `values` with the value `valueId` at `target`, swapped with the one there (ArchivesSpace's update_position_only). */
export function movedTo(values: readonly PlacedValue[], valueId: number, target: number): PlacedValue[] {
  const moving = values.find((value) => value.id === valueId);
  if (moving === undefined) return [...values];
  const from = moving.position;
  const moved = values.map((value) => {
    if (value.id === valueId) return { ...value, position: target };
    return value.position === target ? { ...value, position: from } : value;
  });
  return placedValues({ values: moved });
}

/** How often a write that needs no client lock_version retries after another write slipped in. */
const RETRIES = 5;

const ENUMERATION_URI = new RegExp(`^${ENUMERATIONS_PATH}/([1-9][0-9]*)$`);

export class EnumerationOperations {
  private readonly parse: (raw: unknown) => EnumerationInput;
  private readonly parseValue: (raw: unknown) => EnumerationValueInput;
  private readonly parseMigration: (raw: unknown) => MigrationInput;

  constructor(private readonly deps: EnumerationDeps) {
    this.parse = enumerationInputReader(deps.validator);
    this.parseValue = enumerationValueInputReader(deps.validator);
    this.parseMigration = migrationInputReader(deps.validator);
  }

  private get store() {
    return this.deps.cache.store;
  }

  private definition(name: string): EnumerationDefinition | undefined {
    return this.deps.cache.definitions.get(name);
  }

  private shape(doc: StoredEnumeration): JsonObject {
    return shapeEnumeration(doc, this.definition(doc.name));
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
    const value = doc ? shapeEnumerationValue(doc, valueId, this.definition(doc.name)) : undefined;
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
      values: input.values.map((value, i) => ({ id: valueIds[i]!, value, position: i })),
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
    const current = placedValues(existing);
    const kept = new Map(current.map((value) => [value.value, value]));
    const listed = new Set(input.values);
    // A suppressed value is not in `values` as read: leaving it out of the list keeps it (ArchivesSpace).
    const unlisted = current.filter((value) => !listed.has(value.value));
    const removed = unlisted.filter((value) => value.suppressed !== true).map((value) => value.value);
    const added = input.values.filter((value) => !kept.has(value));
    if (this.definition(existing.name)?.editable === false && (added.length > 0 || removed.length > 0)) {
      throw conflict(`${existing.name} is not editable: its values can be reordered, not added or removed`);
    }
    await this.assertRemovable(existing.name, removed);
    const addedIds = await this.store.valueIds(added.length);
    const values = renumbered([
      ...input.values.map((value): StoredValue => kept.get(value) ?? { id: addedIds[added.indexOf(value)]!, value }),
      ...unlisted.filter((value) => value.suppressed === true),
    ]);
    const change = { values, ...(input.default_value === undefined ? {} : { default_value: input.default_value }) };
    if (!(await this.store.update(id, lockVersion, change, updateStamp(actor, this.deps.now()))))
      throw conflict(LOCK_VERSION_STALE);
    this.deps.cache.invalidate();
    return { status: "Updated", id, lock_version: lockVersion + 1, stale: null, uri: enumerationUri(id), warnings: [] };
  }

  /** @throws ApiError 409 for a read-only value or one a record holds */
  private async assertRemovable(name: string, removed: readonly string[]): Promise<void> {
    const readonly = this.definition(name)?.readonlyValues ?? new Set<string>();
    const fixed = removed.find((value) => readonly.has(value));
    if (fixed !== undefined)
      throw conflict(`Can't remove the read-only value '${fixed}' of ${name}: the record types rely on it`);
    for (const value of removed) {
      const user = await findValueUser(this.deps.registry, this.deps.records, name, value);
      if (user)
        throw conflict(`Can't remove the value '${value}' of ${name}: it is in use by ${user.uri} (${user.path})`);
    }
  }

  /**
   * `POST /config/enumeration_values/:id`: the value as read, with its text, position or
   * suppressed flag changed. A new text is a rename: every record holding the old one is given
   * the new one, in the same transaction.
   * @throws ApiError 400 (body, a text already in the list), 404, 409 (lock_version; a read-only
   * value or one of an enumeration that is not editable renamed)
   */
  async updateValue(valueId: number, raw: unknown, actor: Actor): Promise<WriteResult> {
    assertMay(actor, true);
    const lockVersion = lockVersionOf(raw);
    if (lockVersion === undefined) throw conflict(LOCK_VERSION_MISSING);
    if (!(await this.store.byValueId(valueId))) throw notFound(ENUMERATION_VALUE_NOT_FOUND);
    const input = this.parseValue(raw);
    const now = this.deps.now();
    const result = await this.deps.records.transaction(async (session) => {
      const doc = await this.store.byValueId(valueId, session);
      if (!doc) throw notFound(ENUMERATION_VALUE_NOT_FOUND);
      let values = placedValues(doc);
      const current = values.find((value) => value.id === valueId)!;
      if (lockVersion !== (current.lock_version ?? 0)) throw conflict(LOCK_VERSION_STALE);
      let defaultValue = doc.default_value;
      if (input.value !== current.value) {
        this.assertRenamable(doc, current.value, input.value);
        await moveValueUses(
          this.deps,
          doc.name,
          current.value,
          input.value,
          { username: actor.username, now },
          session,
        );
        if (defaultValue === current.value) defaultValue = input.value;
      }
      if (input.position !== undefined && input.position !== current.position)
        values = movedTo(values, valueId, input.position);
      const next = lockVersion + 1;
      values = values.map((value) =>
        value.id !== valueId
          ? value
          : {
              ...value,
              value: input.value,
              ...(input.suppressed === undefined ? {} : { suppressed: input.suppressed }),
              lock_version: next,
            },
      );
      const change = { values, ...(defaultValue === undefined ? {} : { default_value: defaultValue }) };
      const stamp = updateStamp(actor, now);
      if (!(await this.store.update(doc.id, doc.lock_version, change, stamp, { session, keepDefault: true })))
        throw conflict(LOCK_VERSION_STALE);
      return next;
    });
    this.deps.cache.invalidate();
    return {
      status: "Updated",
      id: valueId,
      lock_version: result,
      stale: null,
      uri: enumerationValueUri(valueId),
      warnings: [],
    };
  }

  /** @throws ApiError 400 for a text already in the list, 409 for a value that cannot be renamed */
  private assertRenamable(doc: StoredEnumeration, from: string, to: string): void {
    const definition = this.definition(doc.name);
    if (definition?.editable === false)
      throw conflict(`${doc.name} is not editable: its values can be reordered, not renamed`);
    if (definition?.readonlyValues.has(from))
      throw conflict(`Can't rename the read-only value '${from}' of ${doc.name}: the record types rely on it`);
    if (doc.values.some((value) => value.value === to))
      throw badRequest({ value: [`'${to}' is already a value of ${doc.name}`] });
  }

  /**
   * Changes one value of the enumeration holding `valueId` with `change`, guarded by the
   * enumeration's lock_version and retried when another write slipped in (these writes take no
   * lock_version from the client, as in ArchivesSpace).
   * @throws ApiError 404, 409 when other writes kept slipping in
   */
  private async changeValue(
    valueId: number,
    actor: Actor,
    change: (values: PlacedValue[], current: PlacedValue) => PlacedValue[],
  ): Promise<PlacedValue> {
    for (let attempt = 0; attempt < RETRIES; attempt += 1) {
      const doc = await this.store.byValueId(valueId);
      if (!doc) throw notFound(ENUMERATION_VALUE_NOT_FOUND);
      const values = placedValues(doc);
      const current = values.find((value) => value.id === valueId)!;
      const next = change(values, current);
      const stamp = updateStamp(actor, this.deps.now());
      if (await this.store.update(doc.id, doc.lock_version, { values: next }, stamp, { keepDefault: true })) {
        this.deps.cache.invalidate();
        return next.find((value) => value.id === valueId)!;
      }
    }
    throw conflict(LOCK_VERSION_STALE);
  }

  /** `POST /config/enumeration_values/:id/position?position=N`. @throws ApiError 404, 409 */
  async setPosition(valueId: number, position: number, actor: Actor): Promise<WriteResult> {
    assertMay(actor, true);
    const value = await this.changeValue(valueId, actor, (values) => movedTo(values, valueId, position));
    return {
      status: "Updated",
      id: valueId,
      lock_version: value.lock_version ?? 0,
      stale: null,
      uri: enumerationValueUri(valueId),
      warnings: [],
    };
  }

  /** `POST /config/enumeration_values/:id/suppressed?suppressed=true|false`. @throws ApiError 404, 409 */
  async setSuppressed(valueId: number, suppressed: boolean, actor: Actor): Promise<SuppressedResult> {
    assertMay(actor, true);
    await this.changeValue(valueId, actor, (values, current) =>
      (current.suppressed === true) === suppressed
        ? values
        : values.map((value) =>
            value.id === valueId ? { ...value, suppressed, lock_version: (value.lock_version ?? 0) + 1 } : value,
          ),
    );
    return { status: "Suppressed", id: valueId, suppressed_state: suppressed };
  }

  /**
   * `POST /config/enumerations/migration`: every record holding `from` is given `to`, and `from`
   * leaves the enumeration, in one transaction. Answers the enumeration as it now is.
   * @throws ApiError 400 (body, an enumeration that is not editable, a read-only `from`, `from`
   * = `to`), 404 (the enumeration, `from` or `to` not found)
   */
  async migrate(raw: unknown, actor: Actor): Promise<JsonObject> {
    assertMay(actor, true);
    const input = this.parseMigration(raw);
    const id = ENUMERATION_URI.exec(input.enum_uri)?.[1];
    if (id === undefined)
      throw badRequest({
        enum_uri: [`Must be an enumeration's uri (${ENUMERATIONS_PATH}/<id>), not "${input.enum_uri}"`],
      });
    const now = this.deps.now();
    const migrated = await this.deps.records.transaction(async (session) => {
      const doc = await this.store.byId(Number(id), session);
      if (!doc) throw notFound(ENUMERATION_NOT_FOUND);
      const definition = this.definition(doc.name);
      if (definition?.editable === false) throw badRequest(`Can't migrate values of ${doc.name}: it is not editable`);
      const values = placedValues(doc);
      const valueNamed = (text: string) => values.find((value) => value.value === text);
      if (!valueNamed(input.from)) throw notFound(`Value '${input.from}' of ${doc.name}`);
      if (definition?.readonlyValues.has(input.from))
        throw badRequest(`Can't migrate from the read-only value '${input.from}' of ${doc.name}`);
      if (!valueNamed(input.to)) throw notFound(`Value '${input.to}' of ${doc.name}`);
      if (input.from === input.to) throw badRequest({ to: ["Must differ from from"] });
      await moveValueUses(this.deps, doc.name, input.from, input.to, { username: actor.username, now }, session);
      const change = {
        values: renumbered(values.filter((value) => value.value !== input.from)),
        ...(doc.default_value === undefined || doc.default_value === input.from
          ? {}
          : { default_value: doc.default_value }),
      };
      if (!(await this.store.update(doc.id, doc.lock_version, change, updateStamp(actor, now), { session })))
        throw conflict(LOCK_VERSION_STALE);
      return (await this.store.byId(doc.id, session))!;
    });
    this.deps.cache.invalidate();
    return this.shape(migrated);
  }
}
