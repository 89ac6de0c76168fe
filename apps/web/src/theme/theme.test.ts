import { afterEach, describe, expect, it } from "vitest";
import { applyThemeChoice, effectiveScheme, readThemeChoice, THEME_KEY } from "./theme";

describe("theme choice", () => {
  afterEach(() => {
    localStorage.clear();
    document.documentElement.removeAttribute("data-theme");
  });

  it("stores light or dark, and forgets the choice for the OS setting", () => {
    applyThemeChoice("dark");
    expect(localStorage.getItem(THEME_KEY)).toBe("dark");
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(readThemeChoice()).toBe("dark");
    expect(effectiveScheme()).toBe("dark");
    applyThemeChoice("system");
    expect(localStorage.getItem(THEME_KEY)).toBeNull();
    expect(document.documentElement.hasAttribute("data-theme")).toBe(false);
    expect(readThemeChoice()).toBe("system");
  });

  it("reads an unknown stored value as the OS setting", () => {
    localStorage.setItem(THEME_KEY, "purple");
    expect(readThemeChoice()).toBe("system");
  });
});
