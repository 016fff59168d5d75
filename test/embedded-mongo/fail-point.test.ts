// The failCommand fail point (src/embedded-mongo/fail-point.ts), as MongoDB's: its modes, its
// refusals of a malformed configuration, and its absence unless test commands are enabled.
import { describe, expect, it } from "@jest/globals";
import { MongoClient } from "mongodb";
import { startEngine } from "../../src/embedded-mongo/index.js";
import { CommandError } from "../../src/embedded-mongo/errors.js";
import { FailPoint } from "../../src/embedded-mongo/fail-point.js";

/** Which of `count` calls of `name` fail. */
function failures(point: FailPoint, name: string, count: number): boolean[] {
  return Array.from({ length: count }, () => {
    try {
      point.check(name);
      return false;
    } catch (error) {
      expect(error).toBeInstanceOf(CommandError);
      return true;
    }
  });
}

describe("FailPoint", () => {
  it("fails the next n matching commands with {times: n}, only those named", () => {
    const point = new FailPoint();
    point.configure({
      configureFailPoint: "failCommand",
      mode: { times: 2 },
      data: { failCommands: ["insert"], errorCode: 11000 },
    });
    expect(failures(point, "find", 2)).toEqual([false, false]);
    expect(failures(point, "insert", 3)).toEqual([true, true, false]);
  });

  it("lets the first n through with {skip: n}, then fails every one; 'off' ends it", () => {
    const point = new FailPoint();
    point.configure({ configureFailPoint: "failCommand", mode: { skip: 2 }, data: { failCommands: ["delete"] } });
    expect(failures(point, "delete", 4)).toEqual([false, false, true, true]);
    point.configure({ configureFailPoint: "failCommand", mode: "off" });
    expect(failures(point, "delete", 1)).toEqual([false]);
    point.configure({ configureFailPoint: "failCommand", mode: "alwaysOn", data: { failCommands: ["delete"] } });
    expect(failures(point, "delete", 3)).toEqual([true, true, true]);
  });

  it("gives the failure the configured error labels (a transient one makes a driver retry the transaction)", () => {
    const point = new FailPoint();
    point.configure({
      configureFailPoint: "failCommand",
      mode: { times: 1 },
      data: { failCommands: ["insert"], errorCode: 112, errorLabels: ["TransientTransactionError"] },
    });
    let caught: unknown;
    try {
      point.check("insert");
    } catch (error) {
      caught = error;
    }
    expect((caught as CommandError).toReply()).toMatchObject({
      ok: 0,
      code: 112,
      errorLabels: ["TransientTransactionError"],
    });
    expect(() =>
      point.configure({
        configureFailPoint: "failCommand",
        mode: "alwaysOn",
        data: { failCommands: ["find"], errorLabels: "Transient" },
      }),
    ).toThrow(/errorLabels/);
  });

  it("refuses an unknown fail point, mode or command list", () => {
    const point = new FailPoint();
    expect(() => point.configure({ configureFailPoint: "other", mode: "alwaysOn" })).toThrow(/unknown fail point/);
    expect(() =>
      point.configure({ configureFailPoint: "failCommand", mode: "sometimes", data: { failCommands: ["find"] } }),
    ).toThrow(/mode must be/);
    expect(() =>
      point.configure({ configureFailPoint: "failCommand", mode: { times: -1 }, data: { failCommands: ["find"] } }),
    ).toThrow(/non-negative/);
    expect(() =>
      point.configure({ configureFailPoint: "failCommand", mode: "alwaysOn", data: { failCommands: "find" } }),
    ).toThrow(/failCommands/);
  });
});

describe("configureFailPoint over the wire", () => {
  it("is no command at all unless the engine takes test commands", async () => {
    const plain = await startEngine({ inMemory: true, port: 0 });
    const testing = await startEngine({ inMemory: true, port: 0, testCommands: true });
    const clients = [new MongoClient(plain.uri), new MongoClient(testing.uri)];
    try {
      const configure = {
        configureFailPoint: "failCommand",
        mode: { times: 1 },
        data: { failCommands: ["insert"], errorCode: 2 },
      };
      await expect(clients[0]!.db("admin").command(configure)).rejects.toThrow(/no such command/);
      await clients[1]!.db("admin").command(configure);
      await expect(clients[1]!.db("t").collection("c").insertOne({ a: 1 })).rejects.toThrow(/failCommand/);
      await clients[1]!.db("t").collection("c").insertOne({ a: 2 });
      expect(await clients[1]!.db("t").collection("c").countDocuments()).toBe(1);
    } finally {
      for (const client of clients) await client.close();
      await plain.close();
      await testing.close();
    }
  });
});
