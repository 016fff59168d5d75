// Valid records of each type. Real ArchivesSpace records where ../shared/data has them.
import { join } from "node:path";
import type { JsonObject, JsonValue } from "../../src/registry/json.js";
import { fixturesDir, readJsonObject, sharedDataDir } from "./helpers.js";

/**
 * The resource in ArchivesSpace's batch-import fixture (every note type). Its linked_agents and
 * subjects hold import-only temporary uris (`/agents/people/import_5`), which only an importer
 * maps to real ones, so they are left out here; everything else is validated as it is. (The
 * catalogue tests create the agents and subjects and check the mapped resource over HTTP.)
 */
export function realResource(): Record<string, JsonValue> {
  const {
    linked_agents: _agents,
    subjects: _subjects,
    ...rest
  } = readJsonObject(join(sharedDataDir, "archivesspace-json", "resource.json"));
  return rest;
}

/** A resource as a real ArchivesSpace 2.7.1 server answered a GET (server fields on every subrecord). */
export function recordedResource(): JsonObject {
  return readJsonObject(join(sharedDataDir, "recorded-responses", "resource.json"));
}

/**
 * Row 1 of ../shared/data/csv/accessions_10_rows.csv (ArchivesSpace's accession import example)
 * as an API record. The CSV's enumerated columns hold random strings, so real ArchivesSpace
 * values stand in for acquisition_type and resource_type.
 */
export function sampleAccession(): Record<string, JsonValue> {
  return { ...readJsonObject(join(fixturesDir, "samples", "accession.json")) };
}

export function sampleRepository(): Record<string, JsonValue> {
  return {
    repo_code: "MSS",
    name: "Manuscripts and Archives",
    org_code: "NNU",
    parent_institution_name: "New York University",
    url: "https://library.example.org/mss",
    country: "US",
    contact_persons: "Head of Archives",
    publish: true,
  };
}

export function sampleUser(): Record<string, JsonValue> {
  return {
    username: "k.martin",
    name: "K. Martin",
    first_name: "K.",
    last_name: "Martin",
    email: "k.martin@example.org",
    is_admin: false,
  };
}

export function sampleGroup(): Record<string, JsonValue> {
  return {
    group_code: "repository-archivists",
    description: "Archivists of the repository",
    member_usernames: ["k.martin"],
    grants_permissions: ["view_repository", "update_accession_record", "update_resource_record"],
  };
}

/** A minimal valid resource, for rule-by-rule tests. */
export function minimalResource(): Record<string, JsonValue> {
  return {
    title: "Papers of Samuel Morse",
    id_0: "MC",
    id_1: "0019",
    level: "collection",
    finding_aid_language: "eng",
    finding_aid_script: "Latn",
    extents: [{ portion: "whole", number: "2", extent_type: "linear_feet" }],
    dates: [{ date_type: "inclusive", label: "creation", begin: "1830", end: "1872" }],
    lang_materials: [{ language_and_script: { language: "eng" } }],
  };
}
