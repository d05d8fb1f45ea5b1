import { describe, expect, it } from "vitest";
import { closest, editDistance } from "../../../src/cli/suggest.js";

describe("did you mean", () => {
  it("counts a swap of two letters as one edit", () => {
    expect(editDistance("lokc", "lock")).toBe(1);
    expect(editDistance("chek", "check")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
  });

  it("finds the word meant, and nothing for a word close to none", () => {
    const options = ["--check", "--accept", "--accept-tool", "--json", "--lock", "--pass-env"];
    expect(closest("--chek", options)).toBe("--check");
    expect(closest("--acept", options)).toBe("--accept");
    expect(closest("--pass-evn", options)).toBe("--pass-env");
    expect(closest("--accept-t", options)).toBe("--accept-tool");
    expect(closest("--zzzzqqq", options)).toBeNull();
    expect(closest("--a", options)).toBeNull();
    expect(closest("x".repeat(10_000), options)).toBeNull();
  });
});
