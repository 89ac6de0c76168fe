import { describe, expect, it } from "vitest";
import { calibrationCeiling, notesSection } from "./report.js";

const summary = (requestsPerSecond: number) => ({ requestsPerSecond, p50: 1, p99: 2, errors: 0 });

describe("calibrationCeiling", () => {
  it("divides the cores by the CPU one request costs the bare server, PostgreSQL and the generator", () => {
    // Bare route: 100% of a core for 10,000 req/s = 0.1 ms a request. Scenario: PostgreSQL 60% and
    // the generator 20% at 2,000 req/s = 0.3 ms and 0.1 ms a request. 2 cores / 0.5 ms = 4,000 req/s.
    const calibration = { summary: summary(10_000), cpu: { server: 100, postgres: 0, bench: 40 }, loadAverage: 1 };
    const scenario = { tracker: summary(2_000), cpu: { server: 90, postgres: 60, bench: 20 } };
    expect(calibrationCeiling(scenario, calibration, 2)).toBeCloseTo(4_000, 6);
    expect(calibrationCeiling(scenario, calibration, 4)).toBeCloseTo(8_000, 6);
  });

  it("is undefined without a rate", () => {
    const calibration = { summary: summary(10_000), cpu: { server: 100, postgres: 0, bench: 40 }, loadAverage: 1 };
    expect(
      calibrationCeiling({ tracker: summary(0), cpu: { server: 0, postgres: 0, bench: 0 } }, calibration, 2),
    ).toBeUndefined();
  });
});

describe("notesSection", () => {
  it("links each note by its title, in file order, and is empty without notes", () => {
    const section = notesSection([
      { file: "z-profile.md", title: "A profile" },
      { file: "a-analysis.md", title: "An analysis" },
    ]);
    expect(section).toContain("## Notes beside this page");
    expect(section.indexOf("[An analysis](benchmarks/a-analysis.md)")).toBeGreaterThan(0);
    expect(section.indexOf("[An analysis]")).toBeLessThan(section.indexOf("[A profile](benchmarks/z-profile.md)"));
    expect(notesSection([])).toBe("");
  });
});
