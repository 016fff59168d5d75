// Arca's version, from package.json (a JSON import, so no file is read at run time).
import manifest from "../package.json" with { type: "json" };

export const ARCA_VERSION: string = manifest.version;
