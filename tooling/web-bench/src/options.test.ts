import { describe, expect, it } from "vitest";
import { chartsViewCommand, parseChartsViewArgs } from "./options.js";

describe("charts-view bench options", () => {
  const parse = (argv: string[]) =>
    parseChartsViewArgs(
      argv,
      chartsViewCommand()
        .exitOverride()
        .configureOutput({ writeErr: () => {} }),
    );

  it("takes another UI build, and the server build that serves it", () => {
    expect(parseChartsViewArgs(["--", "--before", "old/dist"])).toEqual({
      quick: false,
      before: "old/dist",
      navigations: 5,
      warmUps: 1,
    });
    expect(parse(["--before", "old/dist", "--before-server", "old/server/index.js"])).toEqual({
      quick: false,
      navigations: 5,
      warmUps: 1,
      before: "old/dist",
      beforeServer: "old/server/index.js",
    });
  });

  it("takes how many navigations count and how many come first uncounted", () => {
    expect(parse(["--navigations", "9", "--warm-ups", "0"])).toMatchObject({ navigations: 9, warmUps: 0 });
    expect(() => parse(["--navigations", "0"])).toThrow(/--navigations takes a whole number from 1/);
    expect(() => parse(["--warm-ups", "1.5"])).toThrow(/--warm-ups takes a whole number from 0/);
  });

  it("refuses a server build without the UI it would serve", () => {
    expect(() => parse(["--before-server", "old/server/index.js"])).toThrow(/needs --before/);
  });
});
