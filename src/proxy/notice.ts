/**
 * The one line that tells the client, and through it the user, what the guard withheld: in
 * mcp-lint's words, appended to the instructions and sent as a warning. Pure.
 *
 * The line reaches the model, and the names in it are the server's: a withheld tool is withheld so
 * that its text does not reach the model, so its name must not carry it there instead. A name is
 * shown only when it is a plain identifier (or URI) of at most 64 characters; any other is shown as
 * its length and a digest, which the proxy's log lines match by name.
 */

import { createHash } from "node:crypto";
import type { GuardVerdict } from "./guard.js";

/** What the guard withheld, said once. */
export interface WithheldNotice {
  /** The line the client gets; it starts `mcp-lint withheld`. */
  text: string;
  /** One key per withheld entry, to tell a new withholding from one the client was already told of. */
  keys: ReadonlySet<string>;
}

/** Names the line shows before "and N more": it stays one short line however much is withheld. */
const NAMES_SHOWN = 5;
/** Longest name shown as it is. */
const NAME_CHARS = 64;
/** What a name may hold to be shown: identifier and URI characters, no spaces, quotes or controls. */
const PLAIN_NAME = /^[A-Za-z0-9_.:/@~+=%?&#{}-]+$/;

/** The kinds of entries in the order the line names them, with what a verdict holds of each. */
function groups(verdict: GuardVerdict): { word: string; names: string[] }[] {
  const names = (map: ReadonlyMap<string, unknown> | undefined) => [...(map?.keys() ?? [])].sort(byCodeUnit);
  return [
    { word: "tool", names: names(verdict.withheld) },
    { word: "prompt", names: names(verdict.entries.prompts?.withheld) },
    { word: "resource", names: names(verdict.entries.resources?.withheld) },
    { word: "resource template", names: names(verdict.entries.resourceTemplates?.withheld) },
  ].filter((group) => group.names.length > 0);
}

/** The keys of everything a verdict withholds. */
export function withheldKeys(verdict: GuardVerdict): Set<string> {
  return new Set(groups(verdict).flatMap((group) => group.names.map((name) => `${group.word}\u0000${name}`)));
}

/**
 * The line for a verdict, or null when nothing is withheld. `review` is the command the user runs
 * (already inert). The same verdict gives the same line: names are sorted, never in the server's order.
 */
export function withheldNotice(verdict: GuardVerdict, review: string): WithheldNotice | null {
  const found = groups(verdict);
  const total = found.reduce((sum, group) => sum + group.names.length, 0);
  if (total === 0) return null;
  if (verdict.anotherServer !== null) {
    // Its names say nothing the user can act on: the lock is not this server's.
    return {
      text: `mcp-lint withheld everything this server offers (${listWords(found.map((group) => counted(group.names.length, group.word)))}): the lock it runs under holds another server. The user reviews this one in a terminal with: ${review} (the user's own approval: do not run it for them)`,
      keys: withheldKeys(verdict),
    };
  }
  const counts = found.map((group) => counted(group.names.length, group.word));
  const parts: string[] = [];
  let room = NAMES_SHOWN;
  for (const group of found) {
    const shown = group.names.slice(0, room).map(shownName);
    room -= shown.length;
    if (shown.length === 0) break;
    parts.push(found.length === 1 ? shown.join(", ") : `${plural(group.word, shown.length)} ${shown.join(", ")}`);
  }
  const more = total - (NAMES_SHOWN - room);
  const names = `${parts.join("; ")}${more > 0 ? ` and ${more} more` : ""}`;
  return {
    text: `mcp-lint withheld ${listWords(counts)} of this server until the user reviews them: ${names}. The user reviews them in a terminal with: ${review} (the user's own approval: do not run it for them)`,
    keys: withheldKeys(verdict),
  };
}

/** A name as the line shows it: quoted when plain and short, else only its length and a digest. */
function shownName(name: string): string {
  if (name.length <= NAME_CHARS && PLAIN_NAME.test(name)) return `"${name}"`;
  const digest = createHash("sha256").update(name, "utf8").digest("hex").slice(0, 8);
  const why = name.length > NAME_CHARS ? `${name.length} characters` : "spaces or symbols";
  return `(name not shown: ${why}, #${digest})`;
}

function counted(count: number, word: string): string {
  return `${count} ${plural(word, count)}`;
}

function plural(word: string, count: number): string {
  return count === 1 ? word : `${word}s`;
}

function listWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
