// Loaded into the Arca process under fuzz (`node --import <this> dist/src/main.js`), before the
// service: answers the fuzz test's questions over the IPC channel about the built-in
// prototypes, so prototype pollution is seen in the process that was polluted. Plain ESM
// JavaScript because node runs it as it is, ahead of the compiled service.
const PROTOTYPES = { Object: Object.prototype, Array: Array.prototype, Function: Function.prototype, String: String.prototype, Number: Number.prototype, Boolean: Boolean.prototype };

/** Every own property of each prototype, with the identity of its value (or accessors). */
function snapshot() {
  const shot = new Map();
  for (const [name, proto] of Object.entries(PROTOTYPES)) {
    for (const key of Reflect.ownKeys(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, key);
      shot.set(`${name}.prototype.${String(key)}`, descriptor && ("value" in descriptor ? [descriptor.value] : [descriptor.get, descriptor.set]));
    }
  }
  return shot;
}

let baseline;

function compare() {
  const now = snapshot();
  const changes = [];
  for (const [key, value] of now) {
    const before = baseline.get(key);
    if (before === undefined) changes.push(`${key} added`);
    else if (before.length !== value.length || before.some((item, i) => item !== value[i])) changes.push(`${key} replaced`);
  }
  for (const key of baseline.keys()) if (!now.has(key)) changes.push(`${key} removed`);
  return changes;
}

if (typeof process.send === "function") {
  process.on("message", (message) => {
    if (message?.type === "baseline") {
      baseline = snapshot();
      process.send({ type: "baseline", id: message.id });
    } else if (message?.type === "selftest") {
      // Proves the comparison sees a pollution: the fuzz test asks once before it starts.
      Object.prototype.fuzzProbeSelfTest = true;
      const changes = compare();
      delete Object.prototype.fuzzProbeSelfTest;
      process.send({ type: "check", id: message.id, changes });
    } else if (message?.type === "check") {
      process.send({ type: "check", id: message.id, changes: baseline ? compare() : [], rss: process.memoryUsage.rss() });
    }
  });
  // The channel must not keep a stopping service alive.
  process.channel?.unref();
}
