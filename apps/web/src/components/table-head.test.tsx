import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { TableHead } from "./table-head";

afterEach(cleanup);

describe("TableHead", () => {
  it("writes one column header per heading, hidden ones for screen readers only, and leaves out false", () => {
    const { container } = render(
      <table>
        <TableHead headings={[{ hidden: "Select" }, "Name", false, { hidden: "Actions" }]} />
      </table>,
    );
    expect(container.querySelector("thead")?.innerHTML).toBe(
      '<tr><th scope="col"><span class="sr-only">Select</span></th><th scope="col">Name</th>' +
        '<th scope="col"><span class="sr-only">Actions</span></th></tr>',
    );
  });
});
