import { describe, expect, it } from "vitest";
import { TrackerError, isTrackerError } from "./errors.js";

describe("TrackerError", () => {
  it("takes errorCode and message from the server's error body", () => {
    const error = TrackerError.fromResponse(404, {
      error_code: "RESOURCE_DOES_NOT_EXIST",
      message: "No run with id abc",
    });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: "TrackerError",
      errorCode: "RESOURCE_DOES_NOT_EXIST",
      status: 404,
      message: "No run with id abc",
    });
  });

  it("derives the code from the status when the body is not an error body", () => {
    expect(TrackerError.fromResponse(503, "<html>busy</html>")).toMatchObject({
      errorCode: "TEMPORARILY_UNAVAILABLE",
      status: 503,
      message: "HTTP 503: <html>busy</html>",
    });
    expect(TrackerError.fromResponse(502, undefined)).toMatchObject({
      errorCode: "INTERNAL_ERROR",
      message: "HTTP 502 without an error body",
    });
    expect(TrackerError.fromResponse(404, "")).toMatchObject({ errorCode: "ENDPOINT_NOT_FOUND" });
    expect(TrackerError.fromResponse(418, { unexpected: true })).toMatchObject({
      errorCode: "UNEXPECTED_RESPONSE",
      status: 418,
    });
  });

  it("keeps the cause", () => {
    const cause = new TypeError("fetch failed");
    expect(new TrackerError({ errorCode: "NETWORK_ERROR", status: 0, message: "Network error", cause }).cause).toBe(
      cause,
    );
  });

  it("isTrackerError checks the class and optionally the code", () => {
    const error = new TrackerError({ errorCode: "INVALID_STATE", status: 400, message: "deleted" });
    expect(isTrackerError(error)).toBe(true);
    expect(isTrackerError(error, "INVALID_STATE")).toBe(true);
    expect(isTrackerError(error, "BAD_REQUEST")).toBe(false);
    expect(isTrackerError(new Error("x"))).toBe(false);
  });
});
