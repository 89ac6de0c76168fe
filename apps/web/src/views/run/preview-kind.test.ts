import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../components/markdown";
import { parseCsv, previewKind } from "./preview-kind";

describe("artifact previews", () => {
  it("chooses a preview by extension and size", () => {
    expect(previewKind("plots/a.PNG", 10)).toBe("image");
    expect(previewKind("m.json", 10)).toBe("json");
    expect(previewKind("d.tsv", 10)).toBe("csv");
    expect(previewKind("model/MLmodel", 10)).toBe("text");
    expect(previewKind("conf.yaml", 10)).toBe("text");
    expect(previewKind("w.bin", 10)).toBe("none");
    expect(previewKind("big.txt", 100 * 1024 * 1024)).toBe("none");
  });
  it("parses CSV with quotes, doubled quotes, newlines in quotes and CRLF", () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi"""\n"multi\nline",2')).toEqual([
      ["a", "b"],
      ["x, y", 'say "hi"'],
      ["multi\nline", "2"],
    ]);
    expect(parseCsv("a\tb\n1\t2\n", "\t")).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
    expect(parseCsv("a\n1\n2\n3", ",", 2)).toEqual([["a"], ["1"]]);
  });
  it("renders Markdown without scripts or event handlers", () => {
    const html = renderMarkdown(
      "# Title\n\n<script>alert(1)</script><img src=x onerror=alert(1)>\n\n**bold** [l](javascript:alert(1))",
    );
    expect(html).toContain("<h1");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).not.toMatch(/<script|<img|javascript:/i);
  });
  it("shows raw HTML in Markdown as text, never as markup", () => {
    const html = renderMarkdown('Hi <img src=x onerror="alert(1)"> and\n\n<div onclick="x()">block</div>');
    expect(html).toContain("&lt;img src=x onerror=");
    expect(html).toContain("&lt;div onclick=");
    expect(html).not.toMatch(/<img|<div/i);
    const probe = document.createElement("div");
    probe.innerHTML = html;
    expect(probe.textContent).toContain('<img src=x onerror="alert(1)">');
  });
});
