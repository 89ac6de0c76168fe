import DOMPurify from "dompurify";
import { Marked } from "marked";
import { useMemo } from "react";

// Images from user Markdown without a text alternative get an empty one (decorative), so the page
// stays accessible whatever the description holds.
DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "IMG" && !node.hasAttribute("alt")) node.setAttribute("alt", "");
});

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** `text` with every HTML-significant character escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * Markdown without raw HTML: an HTML block or tag written in a description is shown as the text it
 * is (as the issue asks of `<script>` and `<img onerror>`), so no markup from the user ever reaches
 * an HTML parser. Parsing such markup, even in DOMPurify's detached document, makes Chromium report
 * a Content-Security-Policy violation for the blocked `onerror` handler.
 */
const markdown = new Marked({ gfm: true, async: false, renderer: { html: ({ text }) => escapeHtml(text) } });

/** Markdown rendered to HTML by marked (raw HTML escaped) and cleaned by DOMPurify: no scripts, handlers, frames or javascript: links. */
export function renderMarkdown(text: string): string {
  const html = markdown.parse(text, { async: false });
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: ["style", "iframe", "form", "object", "embed"],
    FORBID_ATTR: ["style"],
  });
}

/**
 * Markdown as a plain-text excerpt (for lists): rendered and cleaned as above, then read back as
 * text, whitespace collapsed, cut at `max` characters.
 */
export function markdownExcerpt(text: string, max = 160): string {
  const doc = new DOMParser().parseFromString(renderMarkdown(text), "text/html");
  const plain = (doc.body.textContent ?? "").replace(/\s+/g, " ").trim();
  return plain.length <= max ? plain : `${plain.slice(0, max - 1).trimEnd()}…`;
}

export function Markdown({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown sanitises its HTML with DOMPurify
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
