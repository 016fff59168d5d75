// The repository: what its schema cannot say. A new repository gets the standard groups
// (docs/api.md §8), and deleting one deletes every record inside it (docs/api.md §9).
import { standardGroups } from "../../repositories/standard-groups.js";
import type { RecordOperations } from "../operations/index.js";
import type { RecordHooks } from "./types.js";

export function repositoryHooks(operations: RecordOperations): RecordHooks {
  return {
    async afterCreate({ id, record, actor, session }) {
      for (const group of standardGroups(String(record.repo_code))) {
        await operations.create("group", { repoId: id }, { ...group, member_usernames: [] }, actor, { session });
      }
    },
    async beforeDelete({ id, session }) {
      const { registry, store, changes } = operations.deps;
      for (const type of registry.types) {
        if (type.scope !== "repository") continue;
        const { deletedCount } = await store.collection(type.name).deleteMany({ repo_id: id }, { session });
        if (deletedCount > 0)
          await changes.written({ type: type.name, operation: "delete", ids: "all", scope: { repoId: id } }, session);
      }
    },
  };
}
