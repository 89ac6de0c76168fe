import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement as h } from "react";

/**
 * Setup file of the unit tests (vitest.config.ts): renders with React and runs the DOM queries
 * once before a file's tests, outside every test's timeout. The first render and above all the
 * first role query in a fresh jsdom pay a one-off warm-up (jsdom's style computation, the selector
 * engine, the ARIA role tables, React's first render): measured at 0.7 s + 2.9 s + 0.7 s with the
 * 2 cores loaded 30 times over, which put the first test of a file (aliases-editor, tags-editor)
 * past the 5 s test timeout, while the same steps took 0.3 s each later in the file.
 */
render(
  h(
    "main",
    null,
    h("table", null, h("tbody", null, h("tr", null, h("td", null, h("a", { href: "/x" }, "Version 1"))))),
    h("label", null, "Alias ", h("input", { name: "alias" })),
    h("button", { type: "button", hidden: true }, "Hidden"),
    h("button", { type: "button" }, "Set alias"),
    h("p", { role: "status" }),
  ),
);
screen.getByRole("table");
screen.getByRole("link", { name: "Version 1" });
fireEvent.change(screen.getByLabelText("Alias"), { target: { value: "x" } });
fireEvent.click(screen.getByRole("button", { name: "Set alias" }));
screen.getByRole("status");
cleanup();
