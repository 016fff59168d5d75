// The enumeration routes, as ArchivesSpace has them (backend/app/controllers/enumeration.rb):
//   GET  /config/enumerations               every enumeration (a bare list)
//   POST /config/enumerations               create one
//   GET  /config/enumerations/names/:name   one, by name
//   GET  /config/enumerations/:id           one
//   POST /config/enumerations/:id           update: add, reorder and remove values
//   GET  /config/enumeration_values/:id     one value
// Reading needs a session (any logged-in user); writing needs update_enumeration_record, held
// globally or in any repository: enumerations are shared by every repository, as agents and
// subjects are, and the standard repository groups grant it, as in ArchivesSpace.
import { Router, type Response } from "express";
import { callerOf, type Caller } from "../../auth/caller.js";
import { idParam } from "../http/request-params.js";
import type { AccessControl } from "../../auth/access-control.js";
import { hasPermissionAnywhere } from "../../auth/permissions.js";
import { accessDenied } from "../../errors/api-error.js";
import type { EnumerationOperations } from "./operations.js";
import { ENUMERATION_VALUES_PATH, ENUMERATIONS_PATH } from "./shape.js";

/** The permission code every enumeration write needs (ArchivesSpace's). */
export const UPDATE_ENUMERATION = "update_enumeration_record";

export interface EnumerationRoutesDeps {
  enumerations: EnumerationOperations;
  access: AccessControl;
}

export function enumerationRoutes({ enumerations, access }: EnumerationRoutesDeps): Router {
  const router = Router();

  const writer = async (res: Response): Promise<Caller> => {
    const caller = await callerOf(access, res);
    if (!hasPermissionAnywhere(caller.permissions, UPDATE_ENUMERATION)) throw accessDenied();
    return caller;
  };

  router.get(ENUMERATIONS_PATH, async (_req, res) => {
    await callerOf(access, res);
    res.json(await enumerations.list());
  });

  router.post(ENUMERATIONS_PATH, async (req, res) => {
    const caller = await writer(res);
    res.json(await enumerations.create(req.body, caller));
  });

  // Before /:id, which would take "names" for an id.
  router.get(`${ENUMERATIONS_PATH}/names/:name`, async (req, res) => {
    await callerOf(access, res);
    res.json(await enumerations.readByName(req.params.name));
  });

  router.get(`${ENUMERATIONS_PATH}/:id`, async (req, res) => {
    await callerOf(access, res);
    res.json(await enumerations.read(idParam(req, "id")));
  });

  router.post(`${ENUMERATIONS_PATH}/:id`, async (req, res) => {
    const caller = await writer(res);
    res.json(await enumerations.update(idParam(req, "id"), req.body, caller));
  });

  router.get(`${ENUMERATION_VALUES_PATH}/:id`, async (req, res) => {
    await callerOf(access, res);
    res.json(await enumerations.readValue(idParam(req, "id")));
  });

  return router;
}
