import { describe, expect, it } from "vitest";
import { HASHED_ASSET, maxAge, summarise } from "./transfer.js";

describe("transfer summary", () => {
  it("adds up the search responses and describes the assets", () => {
    const t = summarise([
      { url: "http://h/api/2.0/tracker/runs/search-columns", headers: {}, wire: 100, decoded: 900 },
      { url: "http://h/api/2.0/tracker/runs/search-columns", headers: {}, wire: 50, decoded: 400 },
      {
        url: "http://h/assets/index-C2vHZTsH.js",
        headers: { "content-encoding": "br", "cache-control": "public, max-age=31536000, immutable" },
        wire: 30,
        decoded: 300,
      },
      { url: "http://h/theme.js", headers: {}, wire: 5, decoded: 5 },
    ]);
    expect(t).toMatchObject({ searchRequests: 2, searchWireBytes: 150, searchJsonBytes: 1300 });
    expect(t.assets).toEqual([
      {
        url: "/assets/index-C2vHZTsH.js",
        encoding: "br",
        cacheControl: "public, max-age=31536000, immutable",
        wireBytes: 30,
        hashed: true,
      },
      { url: "/theme.js", encoding: "identity", cacheControl: "", wireBytes: 5, hashed: false },
    ]);
  });

  it("reads max-age and recognises hashed names", () => {
    expect(maxAge("public, max-age=31536000, immutable")).toBe(31536000);
    expect(maxAge("no-cache")).toBe(0);
    expect(HASHED_ASSET.test("/assets/papaparse.min-C3JFiTGb.js")).toBe(true);
    expect(HASHED_ASSET.test("/theme.js")).toBe(false);
  });
});
