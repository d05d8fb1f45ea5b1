/** The built-in known-bad list: data only, one entry per advisory, each with its date and source. */

import type { KnownBadFile } from "./bad-list.js";

/**
 * Releases refused by I1. Same shape as a `--known-bad FILE`. `ranges` follow OSV: `introduced`
 * with no `fixed` means every later release is bad too, so an unpinned launch is known-bad.
 * `date` is when the bad release was published (YYYY-MM-DD, or YYYY-MM when only the month is known).
 */
export const BUILTIN_KNOWN_BAD: KnownBadFile = {
  version: 1,
  entries: [
    {
      ecosystem: "npm",
      name: "postmark-mcp",
      ranges: [{ introduced: "1.0.16" }],
      id: "MAL-2025-47604",
      date: "2025-09-17",
      source: "https://osv.dev/vulnerability/MAL-2025-47604",
      summary: "a backdoor that BCC'd every email it sent to an attacker; 1.0.16 to 1.0.18 were published and none is fixed",
    },
    {
      ecosystem: "PyPI",
      name: "litellm",
      versions: ["1.82.7", "1.82.8"],
      id: "MAL-2026-2144",
      date: "2026-03-24",
      source: "https://osv.dev/vulnerability/MAL-2026-2144",
      summary: "a credential stealer published with a stolen PyPI token; also PYSEC-2026-2 and GHSA-92x9-889m-jgmw",
    },
    {
      ecosystem: "PyPI",
      name: "litellm",
      versions: ["1.107.0"],
      date: "2026-10",
      source: "mcp-lint behaviour spec, Install lint section (no OSV or GHSA record found as of 2026-11-29)",
      summary: "a credential stealer",
    },
  ],
};
