import { describe, expect, it } from "vitest";
import { TrackerError } from "../errors.js";
import { checkArtifactPath } from "./artifact-path.js";
import { locate } from "../artifacts.js";
import { loadConfig } from "../../config/config.js";

describe("checkArtifactPath: the one check of every artifact path", () => {
  it("keeps relative paths, dropping empty names and `.`", () => {
    expect(checkArtifactPath("a/b/c.txt")).toBe("a/b/c.txt");
    expect(checkArtifactPath("a//b/")).toBe("a/b");
    expect(checkArtifactPath("./a/./b")).toBe("a/b");
    expect(checkArtifactPath("")).toBe("");
    expect(checkArtifactPath("héllo wörld/模型.txt")).toBe("héllo wörld/模型.txt");
    expect(checkArtifactPath("..foo/bar..")).toBe("..foo/bar..");
    // Checked fully decoded, kept as given; a stray `%` ends the decoding, as Python's unquote does.
    expect(checkArtifactPath("100%.txt")).toBe("100%.txt");
    expect(checkArtifactPath("a%2Fb/c%20d")).toBe("a%2Fb/c%20d");
    expect(checkArtifactPath(".tracker-upload-evil")).toBe(".tracker-upload-evil");
  });

  it("refuses `..` (also encoded), absolute paths, backslashes, NUL and over-long names with INVALID_PARAMETER_VALUE", () => {
    for (const bad of [
      "..",
      "a/../b",
      "a/..",
      "%2E%2E/x",
      "a/%2e%2e",
      "/etc/passwd",
      "C:/x",
      "a\\b",
      "a\u0000b",
      `${"x".repeat(256)}/y`,
      "a/%2F..%2F",
      "a#b",
      "a/%23",
      "%252E%252E/x",
      "a/%25252e%25252e",
      "file:///etc/passwd",
      "%2Fetc",
    ]) {
      let error: unknown;
      try {
        checkArtifactPath(bad);
      } catch (err) {
        error = err;
      }
      expect(error, bad).toBeInstanceOf(TrackerError);
      expect((error as TrackerError).code).toBe("INVALID_PARAMETER_VALUE");
    }
  });

  it("maps artifact URIs to stores as MLflow's server does (host ignored, http anchor), refusing folders outside", () => {
    const config = loadConfig({}, { dataDir: "/srv/tracker" });
    expect(locate(config, "mlflow-artifacts:/1/abc/artifacts")?.path).toBe("1/abc/artifacts");
    expect(locate(config, "mlflow-artifacts://other:7000/custom/abc/artifacts")?.path).toBe("custom/abc/artifacts");
    expect(locate(config, "mlflow-artifacts:1/abc")?.path).toBe("1/abc");
    expect(locate(config, "http://h:5000/api/2.0/mlflow-artifacts/artifacts/httpexp/r/artifacts")?.path).toBe(
      "httpexp/r/artifacts",
    );
    expect(locate(config, "/srv/tracker/artifacts/0/r/artifacts")?.path).toBe("0/r/artifacts");
    expect(locate(config, "file:///srv/tracker/artifacts/0/r/artifacts")?.path).toBe("0/r/artifacts");
    expect(locate(config, "s3://bucket/x")).toBeUndefined();
    expect(() => locate(config, "/etc")).toThrow(TrackerError);
    expect(() => locate(config, "mlflow-artifacts:/../x")).toThrow(TrackerError);
  });
});
