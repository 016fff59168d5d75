// The enumerations' values as validation reads them: every enumeration's values, loaded in one
// query and kept in this process. Validation is synchronous (ajv), so a write first awaits
// `ready()`, which reloads the values when they are older than `ttlMs` or were invalidated;
// the check that follows reads the loaded values.
//
// Every enumeration write made through this process invalidates the cache, so its own writes
// apply at once. Another process sharing the store (a second Arca on the same MongoDB) sees an
// enumeration change after at most `ttlMs` (default 10 s): until then it may still accept a
// value just removed, or refuse one just added.
import type { EnumerationValues } from "../../registry/enumerations.js";
import type { EnumerationDefinition } from "./definition.js";
import type { EnumerationStore } from "./store.js";

export interface EnumerationCacheOptions {
  /** How long loaded values are used before they are read again; 0 reads them before every write. */
  ttlMs?: number;
  now?: () => number;
}

const DEFAULT_TTL_MS = 10_000;

export class EnumerationCache implements EnumerationValues {
  private values: ReadonlyMap<string, readonly string[]> | undefined;
  private expiresAt = 0;
  /** Bumped by invalidate(): values loaded across an invalidation are used once, not kept. */
  private generation = 0;
  private loadedGeneration = -1;
  private loading: { generation: number; done: Promise<void> } | undefined;
  private readonly ttlMs: number;
  private readonly now: () => number;
  /** What an enumeration the store lacks falls back to: its defined values. */
  private readonly fallback: ReadonlyMap<string, readonly string[]>;

  constructor(
    readonly store: EnumerationStore,
    /** The enumerations as stock and the schemas define them (definition.ts). */
    readonly definitions: ReadonlyMap<string, EnumerationDefinition>,
    options: EnumerationCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.now = options.now ?? Date.now;
    this.fallback = new Map(
      [...definitions.values()].map((definition) => [definition.name, definition.values.map((value) => value.value)]),
    );
  }

  valuesOf(name: string): readonly string[] | undefined {
    return this.values?.get(name) ?? this.fallback.get(name);
  }

  /** Resolves when the values are fresh enough to validate with. */
  async ready(): Promise<void> {
    if (this.values !== undefined && this.now() < this.expiresAt) return;
    if (this.loading === undefined || this.loading.generation !== this.generation) {
      const generation = this.generation;
      const done = this.load(generation).finally(() => {
        if (this.loading?.done === done) this.loading = undefined;
      });
      this.loading = { generation, done };
    }
    await this.loading.done;
  }

  /** Forget the loaded values: call after every enumeration write. */
  invalidate(): void {
    this.generation += 1;
    this.expiresAt = 0;
  }

  private async load(generation: number): Promise<void> {
    const values = await this.store.valuesByName();
    // A slower load begun before an invalidation must not replace what a later one loaded.
    if (generation < this.loadedGeneration) return;
    this.values = values;
    this.loadedGeneration = generation;
    this.expiresAt = generation === this.generation ? this.now() + this.ttlMs : 0;
  }
}
