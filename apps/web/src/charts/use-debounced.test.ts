import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useDebounced } from "./use-debounced";

describe("useDebounced", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("gives the first value at once and a new one only after it held still", () => {
    const { result, rerender } = renderHook(({ value }) => useDebounced(value, 250), {
      initialProps: { value: "0:10" },
    });
    expect(result.current).toBe("0:10");
    rerender({ value: "5:15" });
    act(() => void vi.advanceTimersByTime(200));
    rerender({ value: "10:20" });
    act(() => void vi.advanceTimersByTime(200));
    // Each change restarts the wait: the intermediate window is never fetched.
    expect(result.current).toBe("0:10");
    act(() => void vi.advanceTimersByTime(60));
    expect(result.current).toBe("10:20");
  });
});
