// The hooks of every record type, as the operations ask for them: one RecordHooks per type,
// composed from every set added for it, in the order added (a hook's returned input is the next
// one's input; a read passes through each afterRead).
import type { JsonObject } from "../../registry/index.js";
import type { Actor } from "../types.js";
import type { RecordHooks } from "./types.js";

function compose(sets: readonly RecordHooks[]): RecordHooks {
  const having = (kind: keyof RecordHooks) => sets.filter((set) => set[kind] !== undefined);
  const composed: RecordHooks = {};
  const beforeWrite = having("beforeWrite");
  if (beforeWrite.length > 0)
    composed.beforeWrite = async (write) => {
      let input = write.input;
      for (const set of beforeWrite) input = (await set.beforeWrite!({ ...write, input })) ?? input;
      return input;
    };
  const afterCreate = having("afterCreate");
  if (afterCreate.length > 0)
    composed.afterCreate = async (created) => {
      for (const set of afterCreate) await set.afterCreate!(created);
    };
  const afterUpdate = having("afterUpdate");
  if (afterUpdate.length > 0)
    composed.afterUpdate = async (updated) => {
      for (const set of afterUpdate) await set.afterUpdate!(updated);
    };
  const beforeDelete = having("beforeDelete");
  if (beforeDelete.length > 0)
    composed.beforeDelete = async (deleting) => {
      for (const set of beforeDelete) await set.beforeDelete!(deleting);
    };
  const afterRead = having("afterRead");
  if (afterRead.length > 0)
    composed.afterRead = async (record: JsonObject, actor: Actor) => {
      let shaped = record;
      for (const set of afterRead) shaped = await set.afterRead!(shaped, actor);
      return shaped;
    };
  return composed;
}

export class HookTable {
  private readonly sets = new Map<string, RecordHooks[]>();
  private readonly composed = new Map<string, RecordHooks>();

  /** Adds hooks to a type, after any it has. */
  add(typeName: string, hooks: RecordHooks): this {
    const sets = [...(this.sets.get(typeName) ?? []), hooks];
    this.sets.set(typeName, sets);
    this.composed.set(typeName, compose(sets));
    return this;
  }

  /** The type's hooks, composed; undefined for a type with none. */
  of(typeName: string): RecordHooks | undefined {
    return this.composed.get(typeName);
  }
}
