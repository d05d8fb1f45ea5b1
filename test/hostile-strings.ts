// Attack strings shared by the tests that prove server text stays inert on every output channel.

import fc from "fast-check";
import { expect } from "vitest";

/** Strings an attacker would try: terminal escapes, line tricks, workflow commands, markup, hidden Unicode. */
export const HOSTILE = [
  "\u001b[1A\u001b[2K0 errors",
  "\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007",
  "\u009b2J",
  "ok\r0 errors, 0 warnings",
  "bell\u0007",
  "line\u2028::error::pwned",
  "para\u2029x",
  "\u202eevil\u202c",
  "\u2066isolate\u2069",
  "zero\u200bwidth",
  "\ufeffbom",
  "\n::stop-commands::x\n",
  "::warning file=a::b",
  "%0A::error::encoded",
  "| a | b |",
  "```\n# heading",
  "<img src=x onerror=alert(1)>",
  "tag\u{E0041}\u{E0042}",
  "nel\u0085x",
  "del\u007f",
  "q\n::stop-commands::x\n",
];

/** A raw character no output channel may carry: controls, line and paragraph separators, bidi, zero-width, tags. */
export const FORBIDDEN_OUTPUT = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200b-\u200f\ufeff]|[\u{E0000}-\u{E007F}]/u;

/** A hostile string alone, or wrapped in a little random text on each side. */
export const hostileText = fc.oneof(
  fc.constantFrom(...HOSTILE),
  fc.tuple(fc.string({ maxLength: 6 }), fc.constantFrom(...HOSTILE), fc.string({ maxLength: 6 })).map((parts) => parts.join("")),
);

/** Every line of one output channel is inert: no raw control or invisible character, none starting with `::` (a workflow command). */
export function expectInert(channel: string, output: string): void {
  for (const line of output.split("\n")) {
    expect(FORBIDDEN_OUTPUT.test(line), `${channel} carries a raw control character: ${JSON.stringify(line)}`).toBe(false);
    expect(line.startsWith("::"), `${channel} has a line starting with "::": ${JSON.stringify(line)}`).toBe(false);
  }
}
