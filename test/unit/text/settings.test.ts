// Issue 37 item 1: which passed values can be secrets. A setting (a log level, a boolean, a number,
// a path, a plain URL, a short word) is not redacted; anything that could be a credential is.
import { describe, expect, it } from "vitest";
import { couldBeSecret, MIN_SETTING_SECRET_LENGTH } from "../../../src/text/redact.js";

describe("couldBeSecret", () => {
  const settings = [
    "info",
    "error",
    "debug",
    "warning",
    "true",
    "false",
    "yes",
    "git",
    "1",
    "3000",
    "8080",
    "12345678",
    "production",
    "development",
    "localhost",
    "/home/me/project",
    "~/notes",
    "./data",
    "C:\\Users\\me\\notes",
    "https://api.example.com",
    "https://api.example.com/v2/",
  ];
  for (const value of settings) {
    it(`${JSON.stringify(value)} is a setting`, () => {
      expect(couldBeSecret(value)).toBe(false);
    });
  }
  const secrets = [
    "sk-live-0123456789abcdef",
    "hunter2hunter2",
    "first-key-value",
    "tok_5f2c9a71d04e4b8e9c3a6f1b",
    "http://user:pass@proxy:3128",
    "https://api.example.com/?token=abc123",
    "Bearer abcdefgh1234",
  ];
  for (const value of secrets) {
    it(`${JSON.stringify(value)} can be a secret`, () => {
      expect(couldBeSecret(value)).toBe(true);
    });
  }
  it("the length bound is documented and small", () => {
    expect(MIN_SETTING_SECRET_LENGTH).toBe(8);
    expect(couldBeSecret("a".repeat(7))).toBe(false);
    expect(couldBeSecret("aZ3$".repeat(2))).toBe(true);
  });
});
