/** The parts every JSON report shares, kept free of the report modules so a lint run loads little: the ASCII text, the server object. */

import type { LintFinding } from "../lint/types.js";
import type { ServerSnapshot } from "../lock/snapshot.js";

/**
 * The report's text: pretty JSON with every non-ASCII character escaped, so hidden Unicode a server
 * sent (bidi controls, U+2028) stays visible in a terminal or a diff, as in the lockfile.
 */
export function jsonReportText(report: unknown, redact: (text: string) => string = (text) => text): string {
  // Secrets are matched before escaping, in the form a server echoed them.
  return `${redact(JSON.stringify(report, null, 2)).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`)}\n`;
}

/** The `server` object every JSON report starts with: who was read, how, and never the command itself. */
export function serverJson(snapshot: ServerSnapshot): Record<string, unknown> {
  return {
    name: snapshot.name,
    version: snapshot.version,
    transport: snapshot.transport,
    command_sha256: snapshot.commandSha256,
    instructions_known: snapshot.instructions.known,
    tools: snapshot.tools.length,
  };
}

/**
 * The facts of an S8 finding for a JSON report: its class, and for poisoning the parts (which part,
 * its class, the JSON Pointer of the string, and where it was hidden). The words stay in `message`,
 * where server text is made inert.
 */
export function hiddenFacts(finding: LintFinding): Record<string, unknown> {
  const facts: Record<string, unknown> = { kind: finding.args.kind ?? null };
  const parts = finding.args.parts;
  if (parts !== undefined) {
    facts.parts = parts.map((part) => ({ part: part.part, kind: part.kind, path: part.path, carrier: part.carrier ?? null }));
  }
  return facts;
}
