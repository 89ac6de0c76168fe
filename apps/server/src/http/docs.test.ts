import { describe, expect, it } from "vitest";
import { useTestServer } from "@tracker/testing";

describe("the API reference at /docs", () => {
  const suite = useTestServer("pglite");

  it("serves an index and one page per revision", async () => {
    const index = await fetch(`${suite.url}/docs/`);
    expect(index.status).toBe(200);
    for (const rev of ["rev-a", "rev-b", "rev-c"]) {
      const page = await fetch(`${suite.url}/docs/${rev}`);
      expect(page.status, rev).toBe(200);
      expect(page.headers.get("content-type")).toMatch(/text\/html/);
      expect(await page.text()).toMatch(/<html/i);
    }
    const missing = await fetch(`${suite.url}/docs/nope`);
    expect(missing.status).toBe(404);
  });
});
