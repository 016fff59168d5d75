// A type's hooks from several modules, composed in the order they were added: each beforeWrite
// sees the input the one before returned (undefined keeps it), every afterCreate runs, and a read
// passes through each afterRead.
import { describe, expect, it } from "@jest/globals";
import { trusted } from "../../src/auth/actor.js";
import { HookTable, type PendingWrite, type WrittenRecord } from "../../src/records/hooks/index.js";

const pending = (input: unknown): PendingWrite => ({
  type: "thing",
  operation: "create",
  scope: {},
  actor: trusted("test"),
  input,
  parameters: new Map(),
});

describe("HookTable", () => {
  it("has nothing for a type without hooks", () => {
    expect(new HookTable().of("thing")).toBeUndefined();
  });

  it("chains beforeWrite and afterRead, and runs every afterCreate, in the order added", async () => {
    const heard: string[] = [];
    const table = new HookTable()
      .add("thing", {
        beforeWrite: async ({ input }) => ({ ...(input as object), first: true }),
        afterCreate: async () => void heard.push("first"),
        afterRead: async (record) => ({ ...record, read: ["first"] }),
      })
      .add("other", { beforeWrite: async () => ({ wrong: true }) })
      .add("thing", {
        beforeWrite: async () => undefined,
        afterCreate: async () => void heard.push("second"),
        afterRead: async (record) => ({ ...record, read: [...(record.read as string[]), "second"] }),
      })
      .add("thing", { beforeWrite: async ({ input }) => ({ ...(input as object), third: true }) });
    const hooks = table.of("thing")!;
    expect(await hooks.beforeWrite!(pending({ name: "x" }))).toEqual({ name: "x", first: true, third: true });
    await hooks.afterCreate!({} as WrittenRecord);
    expect(heard).toEqual(["first", "second"]);
    expect(await hooks.afterRead!({ id: 1 }, trusted("test"))).toEqual({ id: 1, read: ["first", "second"] });
    expect(hooks.afterUpdate).toBeUndefined();
  });
});
