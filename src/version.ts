// Arca's version, from package.json (a JSON import, so no file is read at run time), and the ArchivesSpace API version
// it speaks: its endpoints, parameters and answers are those of that release (docs/api.md §15).
import manifest from "../package.json" with { type: "json" };

export const ARCA_VERSION: string = manifest.version;

export const ARCHIVESSPACE_API_VERSION = "3.5.1";

/**
 * `GET /version`'s text. ArchivesSpace answers "ArchivesSpace (v3.5.1)"; ArchivesSnake reads the version with
 * `re.match(r'\(v?(.+\))', text)`, which only matches at the start of the text (so against ArchivesSpace itself it
 * says "unknown version"). Leading with the parenthesis lets it find the API version Arca speaks.
 */
export const VERSION_TEXT = `(v${ARCHIVESSPACE_API_VERSION}) Arca ${ARCA_VERSION}`;
