import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TagsEditor } from "./tags-editor";

// vitest runs without globals here, so testing-library cannot unmount after each test by itself.
afterEach(cleanup);

const tags = [
  { key: "team", value: "vision" },
  { key: "owner", value: "ada" },
];

describe("TagsEditor", () => {
  it("adds, edits and deletes tags, refreshing after each", async () => {
    const onSet = vi.fn(async () => {});
    const onDelete = vi.fn(async () => {});
    const onChanged = vi.fn();
    render(<TagsEditor tags={tags} onSet={onSet} onDelete={onDelete} onChanged={onChanged} />);

    fireEvent.change(screen.getByLabelText("New tag key"), { target: { value: "stage" } });
    fireEvent.change(screen.getByLabelText("New tag value"), { target: { value: "dev" } });
    fireEvent.click(screen.getByRole("button", { name: "Add tag" }));
    await waitFor(() => expect(onSet).toHaveBeenCalledWith("stage", "dev"));
    await waitFor(() => expect((screen.getByLabelText("New tag key") as HTMLInputElement).value).toBe(""));

    fireEvent.click(screen.getByRole("button", { name: "Edit tag team" }));
    fireEvent.change(screen.getByLabelText("Value of team"), { target: { value: "nlp" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(onSet).toHaveBeenCalledWith("team", "nlp"));
    await waitFor(() => expect(screen.queryByLabelText("Value of team")).toBeNull());

    fireEvent.click(screen.getByRole("button", { name: "Delete tag owner" }));
    await waitFor(() => expect(onDelete).toHaveBeenCalledWith("owner"));
    expect(onChanged).toHaveBeenCalledTimes(3);
  });

  it("offers no delete where the API cannot delete, and shows a refusal", async () => {
    const onSet = vi.fn(async () => {
      throw new Error("Invalid tag key");
    });
    render(<TagsEditor tags={tags} onSet={onSet} onChanged={vi.fn()} />);
    expect(screen.queryByRole("button", { name: /Delete tag/ })).toBeNull();
    fireEvent.change(screen.getByLabelText("New tag key"), { target: { value: "a b" } });
    fireEvent.click(screen.getByRole("button", { name: "Add tag" }));
    expect(await screen.findByText(/Invalid tag key/)).toBeTruthy();
    expect((screen.getByLabelText("New tag key") as HTMLInputElement).value).toBe("a b");
  });
});
