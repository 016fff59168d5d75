// The hooks of every record type, as the operations ask for them: one RecordHooks per type,
// composed from every set added for it, in the order added (a hook's returned input is the next
// one's input; a read passes through each afterRead).
import type { JsonObject } from "../../registry/index.js";
import type { Actor } from "../types.js";
import type { RecordHooks } from "./types.js";

/** The hooks of one kind the sets have, in order. */
function present<T>(sets: readonly RecordHooks[], pick: (set: RecordHooks) => T | undefined): T[] {
  return sets.flatMap((set) => {
    const hook = pick(set);
    return hook === undefined ? [] : [hook];
  });
}

/** One hook running each of `hooks` in turn; none when there are none. */
function inTurn<E>(hooks: ReadonlyArray<(event: E) => Promise<void>>): ((event: E) => Promise<void>) | undefined {
  if (hooks.length === 0) return undefined;
  return async (event) => {
    for (const hook of hooks) await hook(event);
  };
}

function compose(sets: readonly RecordHooks[]): RecordHooks {
  const composed: RecordHooks = {};
  const beforeWrite = present(sets, (set) => set.beforeWrite);
  if (beforeWrite.length > 0)
    composed.beforeWrite = async (write) => {
      let input = write.input;
      for (const hook of beforeWrite) input = (await hook({ ...write, input })) ?? input;
      return input;
    };
  const afterCreate = inTurn(present(sets, (set) => set.afterCreate));
  if (afterCreate) composed.afterCreate = afterCreate;
  const afterUpdate = inTurn(present(sets, (set) => set.afterUpdate));
  if (afterUpdate) composed.afterUpdate = afterUpdate;
  const beforeDelete = inTurn(present(sets, (set) => set.beforeDelete));
  if (beforeDelete) composed.beforeDelete = beforeDelete;
  const afterRead = present(sets, (set) => set.afterRead);
  if (afterRead.length > 0)
    composed.afterRead = async (record: JsonObject, actor: Actor) => {
      let shaped = record;
      for (const hook of afterRead) shaped = await hook(shaped, actor);
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
