// The redactor: every form of a secret a server can echo (encoded inside longer text too), and the
// line stream that keeps a secret out of forwarded stderr however it is split over chunks and lines.
import { Buffer } from "node:buffer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeRedactor, REDACTED } from "../../../src/text/redact.js";

const SECRET = "sk-live-0123456789abcdefghijklmnop";

describe("secret forms", () => {
  const redactor = makeRedactor([SECRET]);
  const bytes = Buffer.from(SECRET, "utf8");

  it("redacts the secret in base64 and base64url, padded or not, and in hex of either case", () => {
    for (const form of [
      bytes.toString("base64"),
      bytes.toString("base64").replace(/=+$/, ""),
      bytes.toString("base64url"),
      bytes.toString("hex"),
      bytes.toString("hex").toUpperCase(),
    ]) {
      const out = redactor.text(`token=${form};`);
      expect(out, form).not.toContain(form);
      expect(out).toContain(REDACTED);
    }
  });

  it("finds the secret base64-encoded inside a longer encoded text, at each of the three byte offsets", () => {
    for (const prefix of ["", "a", "ab", "abc", "user:"]) {
      for (const alphabet of ["base64", "base64url"] as const) {
        const blob = Buffer.from(`${prefix}${SECRET}:trailer`, "utf8").toString(alphabet);
        const out = redactor.text(blob);
        expect(out, `${alphabet} after ${JSON.stringify(prefix)}`).toContain(REDACTED);
        // What is left could not be decoded back into most of the secret.
        const left = out.split(REDACTED).join("");
        expect(Buffer.from(left, alphabet).toString("latin1")).not.toContain(SECRET.slice(4, 20));
      }
    }
  });

  it("leaves ordinary text alone: no short encoded form matches by chance", () => {
    const text = "Read a file from the workspace and return its lines; base64 blobs such as aGVsbG8= are fine.";
    expect(makeRedactor(["abc12345"]).text(text)).toBe(text);
  });
});

describe("line stream", () => {
  const all = (chunks: string[]) => {
    const stream = makeRedactor([SECRET]).lines();
    return [...chunks.flatMap((chunk) => stream.push(chunk)), ...stream.flush()];
  };

  it("redacts a secret whole before a line is cut (3,970 characters of filler then the token)", () => {
    const lines = all([`${"x".repeat(3970)}${SECRET}\n`]);
    expect(lines).toEqual([`${"x".repeat(3970)}${REDACTED}`]);
  });

  it("redacts a secret split over two lines on both lines", () => {
    const lines = all([`token: ${SECRET.slice(0, 15)}\n`, `${SECRET.slice(15)} done\n`]);
    expect(lines).toEqual([`token: ${REDACTED}`, `${REDACTED} done`]);
  });

  it("holds a line while it may end in the start of a secret, and gives it out once it cannot", () => {
    const stream = makeRedactor([SECRET]).lines();
    expect(stream.push(`a\nb ${SECRET.slice(0, 10)}`)).toEqual(["a"]);
    expect(stream.push(" then nothing\n")).toEqual([`b ${SECRET.slice(0, 10)} then nothing`]);
  });

  it("on flush redacts a held start of a secret of 8 or more characters, and still finds the rest when it comes", () => {
    const stream = makeRedactor([SECRET]).lines();
    expect(stream.push(`key ${SECRET.slice(0, 12)}`)).toEqual([]);
    expect(stream.flush()).toEqual([`key ${REDACTED}`]);
    expect(stream.push(`${SECRET.slice(12)} end\n`)).toEqual([`${REDACTED} end`]);
    // A few characters that merely could begin one are shown.
    const short = makeRedactor([SECRET]).lines();
    short.push("see sk-");
    expect(short.flush()).toEqual(["see sk-"]);
  });

  it("property: however a text with secrets is cut into chunks and lines, no secret survives and other text is kept", () => {
    const piece = fc.oneof(
      fc.constant({ secret: true, text: SECRET }),
      fc.string({ unit: fc.constantFrom("a", "b", " ", "-", "s", "k", "\n", "0", "1"), maxLength: 30 }).map((text) => ({ secret: false, text })),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 4 }), (pieces, cuts, breaks) => {
        // Line breaks inside secrets too: a server may wrap a long token.
        let text = pieces.map((p) => p.text).join("");
        for (const at of breaks) {
          const place = text.length === 0 ? 0 : at % text.length;
          text = `${text.slice(0, place)}\n${text.slice(place)}`;
        }
        const points = [...new Set(cuts.map((at) => (text.length === 0 ? 0 : at % text.length)))].sort((a, b) => a - b);
        const chunks: string[] = [];
        let last = 0;
        for (const point of points) {
          chunks.push(text.slice(last, point));
          last = point;
        }
        chunks.push(text.slice(last));
        const lines = all(chunks);
        const joined = lines.join("");
        expect(joined).not.toContain(SECRET);
        for (let start = 0; start + 12 <= SECRET.length; start += 4) expect(joined.replaceAll("\n", "")).not.toContain(SECRET.slice(start, start + 12));
        if (!text.replaceAll("\n", "").includes(SECRET)) {
          const expected = text.split("\n");
          if (expected[expected.length - 1] === "") expected.pop();
          expect(lines).toEqual(expected);
        }
      }),
      { numRuns: 2000, seed: 20261201 },
    );
  });
});

describe("a redactor that learns secrets during the run (OAuth tokens)", () => {
  it("redacts a learned secret in every form from then on, and says it is active", () => {
    const redactor = makeRedactor([]);
    expect(redactor.active).toBe(false);
    expect(redactor.text("token at-0123456789abcdef here")).toBe("token at-0123456789abcdef here");
    redactor.learn(["at-0123456789abcdef"]);
    expect(redactor.active).toBe(true);
    expect(redactor.text("token at-0123456789abcdef here")).toBe("token [redacted] here");
    expect(redactor.text(Buffer.from("at-0123456789abcdef").toString("base64"))).toBe("[redacted]");
    expect(redactor.found).toBe(true);
    // Learning the same secret again changes nothing; the earlier ones stay.
    redactor.learn(["at-0123456789abcdef", "rt-fedcba9876543210"]);
    expect(redactor.text("at-0123456789abcdef rt-fedcba9876543210")).toBe("[redacted] [redacted]");
  });
});
