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
    expect(parseChartsViewArgs(["--", "--before", "old/dist"])).toEqual({ quick: false, before: "old/dist" });
    expect(parse(["--before", "old/dist", "--before-server", "old/server/index.js"])).toEqual({
      quick: false,
      before: "old/dist",
      beforeServer: "old/server/index.js",
    });
  });

  it("refuses a server build without the UI it would serve", () => {
    expect(() => parse(["--before-server", "old/server/index.js"])).toThrow(/needs --before/);
  });
});
