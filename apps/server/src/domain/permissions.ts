/** MLflow's permissions (mlflow/server/auth/permissions.py) and what each allows. */
export const PERMISSION_NAMES = ["READ", "EDIT", "MANAGE", "NO_PERMISSIONS"] as const;
export type PermissionName = (typeof PERMISSION_NAMES)[number];

/** What an operation needs: MLflow's can_read, can_update, can_delete, can_manage. */
export type Capability = "read" | "update" | "delete" | "manage";

const CAPABILITIES: Record<PermissionName, ReadonlySet<Capability>> = {
  READ: new Set(["read"]),
  EDIT: new Set(["read", "update"]),
  MANAGE: new Set(["read", "update", "delete", "manage"]),
  NO_PERMISSIONS: new Set(),
};

export const allows = (permission: PermissionName, capability: Capability): boolean =>
  CAPABILITIES[permission].has(capability);

export const isPermissionName = (value: unknown): value is PermissionName =>
  typeof value === "string" && (PERMISSION_NAMES as readonly string[]).includes(value);

/** MLflow's message for an unknown permission. */
export const invalidPermissionMessage = (value: string): string =>
  `Invalid permission '${value}'. Valid permissions are: (${PERMISSION_NAMES.map((p) => `'${p}'`).join(", ")})`;
