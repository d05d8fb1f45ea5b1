/** A cheap first look at a launch: can it possibly name a built-in known-bad package? Pure, and loads none of the parsers. */

import { BUILTIN_KNOWN_BAD } from "./known-bad.js";
import { spellings, squash } from "./spellings.js";

// Why this never says no to a launch the full check refuses (lint.ts):
// - the full check reads names from three places: the words its parsers split (shell-quote per
//   dialect, then npm-package-arg and PEP 508, which only take substrings), and the release and
//   name scans over `spellings(token)` of every token and of the whole line;
// - `spellings` includes each shell-quote decoding of the token, repeated for nested scripts, so
//   every parsed word is a piece of some spelling;
// - every match compares names with `-`, `_`, `.` and case ignored, so the matched text squashes to
//   the entry's squashed name, and `squash` maps text one code point at a time, so a spelling that
//   holds the match squashes to a text that holds the name;
// - this function looks at the same spellings of the same tokens and says yes when any squashed
//   spelling holds a squashed built-in name, or when a limit cut the list of spellings short.
// The property test in test/unit/install/prefilter.test.ts checks this over generated spellings.

const BAD_NAMES = [...new Set(BUILTIN_KNOWN_BAD.entries.map((entry) => squash(entry.name)))];

/**
 * False only when no built-in known-bad name occurs in any spelling of the launch (see
 * spellings.ts); then the full install lint (and the parsers it loads) can be skipped at start-up.
 */
export function mayNameKnownBad(argv: readonly string[]): boolean {
  const tokens = argv.length > 1 ? [...argv, argv.join(" ")] : argv;
  for (const token of tokens) {
    const { texts, complete } = spellings(token);
    if (!complete) return true;
    for (const text of texts) {
      const squashed = squash(text);
      if (BAD_NAMES.some((name) => squashed.includes(name))) return true;
    }
  }
  return false;
}
