import DOMPurify from "dompurify";
import { marked } from "marked";
import { useMemo } from "react";

// Images from user Markdown without a text alternative get an empty one (decorative), so the page
// stays accessible whatever the description holds.
DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "IMG" && !node.hasAttribute("alt")) node.setAttribute("alt", "");
});

/** Markdown rendered to HTML by marked and cleaned by DOMPurify: no scripts, handlers or frames survive. */
export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false, gfm: true });
  return DOMPurify.sanitize(html, { FORBID_TAGS: ["style", "iframe", "form", "object", "embed"], FORBID_ATTR: ["style"] });
}

export function Markdown({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
