import { writeJson } from "../json-response.js";
import type { Response } from "express";
import { STATUS_OF_CODE } from "../error-body.js";
import type { ErrorCode } from "../../core/errors.js";

/** Who a request comes from, once authenticated (auth `users`). */
export interface Principal {
  /** The user's id; undefined for the shared TRACKER_AUTH_TOKEN, which acts as an admin with no user. */
  id: number | undefined;
  username: string;
  isAdmin: boolean;
}

export function rememberPrincipal(res: Response, principal: Principal): void {
  res.locals.principal = principal;
}

/** The request's principal, or undefined when authentication is off. */
export function principalOf(res: Response): Principal | undefined {
  return res.locals.principal as Principal | undefined;
}

/** MLflow's words for missing or wrong credentials (mlflow/server/auth/__init__.py). */
export const NOT_AUTHENTICATED =
  "You are not authenticated. Please see https://www.mlflow.org/docs/latest/auth/index.html#authenticating-to-mlflow on how to authenticate.";
/** MLflow's words for a known user without the right. */
export const PERMISSION_DENIED = "Permission denied";

/**
 * Writes an error body unchecked: 401 and 403 apply to every operation of every document (see
 * spec/auth.yaml), which the revisions' own documents do not list, so the response check used in
 * tests must not see them as undocumented answers.
 */
export function refuse(res: Response, code: ErrorCode, message: string): void {
  writeJson(res, STATUS_OF_CODE[code], { error_code: code, message });
}
