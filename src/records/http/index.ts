// The records' HTTP face: generated per-type controllers over the record operations.
export {
  listParams,
  parameterValues,
  parseListQuery,
  parseResolve,
  requestParameters,
  resolveParam,
  type ParameterValues,
} from "./list-params.js";
export { RecordController, recordControllers, type RecordControllerClass } from "./record-controller.js";
export { RecordEndpoints, type RecordRouteDeps } from "./record-endpoints.js";
export { authorize, requestActor } from "./route-guard.js";
