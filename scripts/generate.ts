// `npm run generate`: record-types/*.schema.json → generated/ (types and the registry manifest).
// Run from the package root, as npm does.
import { resolve } from "node:path";
import { generate, writeGenerated } from "../src/registry/build/generate.js";
import { messageOf, SchemaDefinitionError } from "../src/registry/errors.js";

const root = process.cwd();
try {
  const output = await generate(resolve(root, "record-types"));
  writeGenerated(resolve(root, "generated"), output);
  console.log(
    `generated ${output.manifest.types.length} record types: ${output.manifest.types.map((type) => type.name).join(", ")}`,
  );
} catch (error) {
  // A schema mistake is the author's to fix: say which file and what, without a stack trace.
  if (!(error instanceof SchemaDefinitionError)) throw error;
  console.error(`generate: ${messageOf(error)}`);
  process.exitCode = 1;
}
