import { describe, expect, it } from "vitest";
import { markdownExcerpt } from "./markdown";

describe("markdownExcerpt", () => {
  it("reads Markdown as plain text, without markup or HTML, cut to length", () => {
    expect(markdownExcerpt("## Fraud model\n\nDetects **fraud** in `payments`.\n\n- a\n- b")).toBe(
      "Fraud model Detects fraud in payments. a b",
    );
    expect(markdownExcerpt('<script>alert(1)</script> <img src=x onerror="x()"> ok')).toBe(
      '<script>alert(1)</script> <img src=x onerror="x()"> ok',
    );
    expect(markdownExcerpt("word ".repeat(100), 20)).toBe("word word word word…");
  });
});
