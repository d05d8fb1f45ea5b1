/** A cheap first look at a launch: can it possibly name a built-in known-bad package? Pure. */

import { BUILTIN_KNOWN_BAD } from "./known-bad.js";

/**
 * Lower-case letters and digits only, after undoing percent-encoding. Quotes, backslashes, cmd's
 * carets, PowerShell's backticks and the `-`/`_`/`.` that name matching ignores all drop out, so
 * anything the full parser could read as a bad name still contains that name here.
 */
function squash(text: string): string {
  let decoded = text;
  for (let round = 0; round < 3; round++) {
    const next = decoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    if (next === decoded) break;
    decoded = next;
  }
  return decoded.toLowerCase().replace(/[^a-z0-9]/g, "");
}

const BAD_NAMES = BUILTIN_KNOWN_BAD.entries.map((entry) => squash(entry.name));

/**
 * False only when no built-in known-bad name occurs anywhere in the launch, in any spelling the
 * parser accepts; then the full install lint (and the parsers it loads) can be skipped at start-up.
 */
export function mayNameKnownBad(argv: readonly string[]): boolean {
  const text = squash(argv.join(" "));
  return BAD_NAMES.some((name) => text.includes(name));
}
