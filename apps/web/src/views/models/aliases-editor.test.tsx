import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AliasBadges, AliasesEditor } from "./aliases-editor";

// vitest runs without globals here, so testing-library cannot unmount after each test by itself.
afterEach(cleanup);

const aliases = [
  { alias: "champion", version: "2" },
  { alias: "challenger", version: "3" },
];

describe("AliasesEditor", () => {
  it("on the model page lists every alias with its version, sets one on the picked version and removes one", async () => {
    const onSet = vi.fn(async () => {});
    const onDelete = vi.fn(async () => {});
    const onChanged = vi.fn();
    render(
      <AliasesEditor
        name="fraud"
        aliases={aliases}
        versions={["3", "2", "1"]}
        onSet={onSet}
        onDelete={onDelete}
        onChanged={onChanged}
      />,
    );
    const table = screen.getByRole("table");
    expect(within(table).getByRole("link", { name: "Version 2" }).getAttribute("href")).toBe(
      "/models/fraud/versions/2",
    );
    expect(within(table).getByText("@challenger")).toBeTruthy();

    fireEvent.change(screen.getByLabelText("Alias"), { target: { value: " staging " } });
    fireEvent.change(screen.getByLabelText("Version"), { target: { value: "1" } });
    fireEvent.click(screen.getByRole("button", { name: "Set alias" }));
    await waitFor(() => expect(onSet).toHaveBeenCalledWith("staging", "1"));
    await waitFor(() => expect(onChanged).toHaveBeenCalledTimes(1));
    expect((screen.getByLabelText("Alias") as HTMLInputElement).value).toBe("");

    fireEvent.click(screen.getByRole("button", { name: "Remove alias champion" }));
    await waitFor(() => expect(onDelete).toHaveBeenCalledWith("champion"));
  });

  it("on a version page shows that version's aliases only, says when an alias will move, and shows a refusal", async () => {
    const onSet = vi.fn(async () => {
      throw new Error("Invalid alias name: 'a b'.");
    });
    render(
      <AliasesEditor name="fraud" aliases={aliases} version="2" onSet={onSet} onDelete={vi.fn()} onChanged={vi.fn()} />,
    );
    expect(screen.getByText("@champion")).toBeTruthy();
    expect(screen.queryByText("@challenger")).toBeNull();
    expect(screen.queryByLabelText("Version")).toBeNull();

    fireEvent.change(screen.getByLabelText("Alias"), { target: { value: "challenger" } });
    expect(screen.getByRole("status").textContent).toBe("@challenger now names version 3: it will move.");

    fireEvent.change(screen.getByLabelText("Alias"), { target: { value: "a b" } });
    fireEvent.click(screen.getByRole("button", { name: "Add alias" }));
    await waitFor(() => expect(onSet).toHaveBeenCalledWith("a b", "2"));
    await screen.findByText(/Invalid alias name/);
    expect((screen.getByLabelText("Alias") as HTMLInputElement).value).toBe("a b");
  });

  it("explains aliases when a version has none", () => {
    render(<AliasesEditor name="m" aliases={[]} version="1" onSet={vi.fn()} onDelete={vi.fn()} onChanged={vi.fn()} />);
    expect(screen.getByText(/No alias names this version/)).toBeTruthy();
    expect(screen.getByText("models:/m@champion")).toBeTruthy();
  });
});

describe("AliasBadges", () => {
  it("shows a version's aliases, or the placeholder", () => {
    const { container, rerender } = render(<AliasBadges aliases={aliases} version="3" empty="—" />);
    expect(container.textContent).toBe("@challenger");
    rerender(<AliasBadges aliases={aliases} version="1" empty="—" />);
    expect(container.textContent).toBe("—");
  });
});
