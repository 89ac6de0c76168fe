import { auditPage } from "../../core/auth/audit.js";
import { TrackerError } from "../../core/errors.js";
import { handlerTable } from "../operation-handler.js";
import { principalOf } from "./principal.js";

/** spec/auth.yaml `audit/list`: the audit trail of user, permission and token changes (admins; rules.ts). */
export const auditTrailHandlers = handlerTable({
  async listAuditEntries({ input, services, res }) {
    if (!principalOf(res))
      throw new TrackerError(
        "ENDPOINT_NOT_FOUND",
        "Users and permissions are off: start the server with --auth users (or --app-name basic-auth)",
      );
    return auditPage(services.knex, input.max_results, input.page_token);
  },
});
