import { thrownBy } from "@tracker/testing";
import { describe, expect, it } from "vitest";
import type { SortColumn } from "./keyset.js";
import { decodePageToken, encodePageToken } from "./page-token.js";

const columns: SortColumn[] = [{ sql: "name", descending: false, type: "text" }];
const encode = (body: unknown) => Buffer.from(JSON.stringify(body)).toString("base64url");

describe("keyset page tokens of earlier servers", () => {
  it("says that a registry token of the format before {v,q,o,k} comes from an earlier server", () => {
    const error = thrownBy(() =>
      decodePageToken(encode({ s: "registered-models/search", o: "name+", a: ["m"] }), "q", columns, "name+"),
    );
    expect(error.code).toBe("INVALID_PARAMETER_VALUE");
    expect(error.message).toBe(
      "Invalid page token: it was issued by an earlier version of the server; search again without page_token",
    );
  });

  it("keeps the plain message for anything else that is not a token of this search", () => {
    for (const token of [
      encode({}),
      encode({ s: "registered-models/search", o: "name+" }),
      encode({ v: 1, s: "x", o: "name+", a: ["m"] }),
      encodePageToken("other", ["m"], "name+"),
    ]) {
      expect(thrownBy(() => decodePageToken(token, "q", columns, "name+")).message).toBe("Invalid page token");
    }
    expect(decodePageToken(encodePageToken("q", ["m"], "name+"), "q", columns, "name+")).toEqual(["m"]);
  });
});
