// What the server says about itself (ext operation getServerInfo).
import { ClientCore } from "./client-core.js";
import type { components } from "./generated/ext.js";
import { expectData } from "./response.js";

export type ServerInfo = components["schemas"]["ServerInfo"];

export class ServerInfoClient extends ClientCore {
  /** The server's namespace (system-tag prefix), database kind and version. */
  async serverInfo(): Promise<ServerInfo> {
    return expectData(this.ext.GET("/api/2.0/tracker/server-info"));
  }
}
