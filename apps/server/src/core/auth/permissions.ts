import { invalidParameter } from "../errors.js";
import { invalidPermissionMessage, isPermissionName, type PermissionName } from "../../domain/permissions.js";

export * from "../../domain/permissions.js";

/** A permission from the API, with MLflow's message for an unknown one. */
export function parsePermission(value: string): PermissionName {
  if (isPermissionName(value)) return value;
  throw invalidParameter(invalidPermissionMessage(value));
}
