/** S8: hidden text and tool poisoning in any string of a tool (keys included) or in the server's instructions. */

import type { Severity } from "../../lock/kinds.js";
import { ATTACK_PART, type AttackPart, HIDDEN_SEVERITY, type HiddenHit, OWN_OUTPUT, type Steer, scanText } from "../hidden.js";
import { MAX_DEFINITION_DEPTH } from "../../limits.js";
import { isObject, type JsonObject, own, pointerToken } from "../json.js";
import { nameSegments } from "../text.js";
import type { LintArgs, LintFinding, PoisoningPart } from "../types.js";
import type { Rule } from "./rule.js";

/**
 * S8 on one tool definition alone, for callers outside a full lint run (the lock checks every tool
 * it is about to write). `index` is the tool's position in its list, when known.
 */
export function scanToolHiddenText(tool: unknown, index: number | null = null): LintFinding[] {
  return toolFindings(tool, index, new ScanMemo());
}

/**
 * scanToolHiddenText for many tools of one list, sharing one memory of scanned strings as the lint
 * rule does: the tools of a list repeat most keys and many values, so each is scanned once.
 */
export function hiddenTextScanner(): (tool: unknown, index?: number | null) => LintFinding[] {
  const memo = new ScanMemo();
  return (tool, index = null) => toolFindings(tool, index, memo);
}

/** Longest string whose scan result is remembered; longer ones rarely repeat and are scanned each time. */
const MEMO_MAX_LENGTH = 4_096;

/**
 * scanText with a memory of the strings already scanned. Definitions repeat the same keys and
 * values (`type`, `string`, `description`) thousands of times across tools, and the result depends
 * on the text alone. Only references to the input's own strings are kept, so memory stays linear in
 * the input.
 */
class ScanMemo {
  /** Strings scanned without a hit: the usual case, one set lookup each. */
  readonly clean = new Set<string>();
  private readonly dirty = new Map<string, readonly HiddenHit[]>();

  /** The hits in a string that is not in `clean`. */
  scan(text: string): readonly HiddenHit[] {
    if (text.length > MEMO_MAX_LENGTH) return scanText(text);
    const known = this.dirty.get(text);
    if (known !== undefined) return known;
    const hits = scanText(text);
    if (hits.length === 0) this.clean.add(text);
    else this.dirty.set(text, hits);
    return hits;
  }
}

/** The hits of one string, where it is, and whether it was a key. */
interface Located {
  hits: readonly HiddenHit[];
  path: string;
  inKey: boolean;
}

/**
 * S8 on every string of one tool definition, keys included, in document order (each key right before
 * its value). A string's JSON Pointer (for a key: of the value it names) is built only when it has a
 * hit. Bounded by the definition depth limit; an object met twice (a cycle, or sharing that parsed
 * JSON never has) is read once, so hostile in-memory input cannot make the walk exponential.
 */
function toolFindings(tool: unknown, index: number | null, memo: ScanMemo): LintFinding[] {
  const rawName = isObject(tool) ? own(tool, "name") : undefined;
  const name = typeof rawName === "string" ? rawName : `#${(index ?? 0) + 1}`;
  const located: Located[] = [];
  const clean = memo.clean;
  // The keys and positions from the tool down to the container being read; numbers stay numbers
  // until a pointer is needed.
  const tokens: (string | number)[] = [];
  const seen = new Set<object>();
  const note = (hits: readonly HiddenHit[], last: string | number | null, inKey: boolean) => {
    let path = "";
    for (const token of tokens) path += `/${pointerToken(token)}`;
    if (last !== null) path += `/${pointerToken(last)}`;
    located.push({ hits, path, inKey });
  };
  // Strings are checked where they are met (no scan for the usual clean one); only containers recurse.
  const member = (item: unknown, token: string | number, depth: number): void => {
    if (typeof item === "string") {
      if (!clean.has(item)) {
        const hits = memo.scan(item);
        if (hits.length > 0) note(hits, token, false);
      }
    } else if (typeof item === "object" && item !== null && depth < MAX_DEFINITION_DEPTH && !seen.has(item)) {
      tokens.push(token);
      walk(item, depth + 1);
      tokens.pop();
    }
  };
  const walk = (container: object, depth: number): void => {
    seen.add(container);
    if (Array.isArray(container)) {
      const list = container as unknown[];
      for (let position = 0; position < list.length; position++) member(list[position], position, depth);
      return;
    }
    const record = container as JsonObject;
    const keys = Object.keys(record);
    for (let at = 0; at < keys.length; at++) {
      const key = keys[at] as string;
      if (!clean.has(key)) {
        const hits = memo.scan(key);
        if (hits.length > 0) note(hits, key, true);
      }
      member(record[key], key, depth);
    }
  };
  if (typeof tool === "string") {
    const hits = memo.scan(tool);
    if (hits.length > 0) note(hits, null, false);
  } else if (typeof tool === "object" && tool !== null) {
    walk(tool, 1);
  }
  if (located.length === 0) return [];
  // The tool's own names and parameters are read only when a sentence steers a call: most hits do not.
  let self: Self | null = null;
  return judgeParts(located, subjectWords(tool), () => (self ??= selfOf(tool))).map((found) => ({ rule: "S8", tool: name, toolIndex: index, ...found }));
}

/** What a tool is called and which parameters it has: a call or a parameter it names is its own, not another tool's. */
interface Self {
  names: ReadonlySet<string>;
  params: ReadonlySet<string>;
  /** The server's instructions: naming the server's tools and their order is their job. */
  instructions: boolean;
}

/** A name as compared: lower case, letters and digits only (`list_emails`, `listEmails` and `list-emails` are one). */
function comparable(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** The tool's own names (name, titles) and every property name of its input schema, at any depth. */
function selfOf(tool: unknown): Self {
  const names = new Set<string>();
  const params = new Set<string>();
  if (!isObject(tool)) return { names, params, instructions: false };
  const annotations = own(tool, "annotations");
  for (const text of [own(tool, "name"), own(tool, "title"), isObject(annotations) ? own(annotations, "title") : undefined]) {
    if (typeof text === "string" && text.length <= 200) names.add(comparable(text));
  }
  const seen = new Set<object>();
  const collect = (node: unknown, depth: number): void => {
    if (typeof node !== "object" || node === null || depth > MAX_DEFINITION_DEPTH || seen.has(node) || params.size > 10_000) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) collect(item, depth + 1);
      return;
    }
    const properties = own(node as JsonObject, "properties");
    if (isObject(properties)) for (const key of Object.keys(properties)) params.add(comparable(key));
    for (const key of Object.keys(node)) collect((node as JsonObject)[key], depth + 1);
  };
  collect(own(tool, "inputSchema"), 0);
  return { names, params, instructions: false };
}

/**
 * Whether a sentence that steers calls reaches outside the tool, and how surely. A call of another
 * tool is strong when it is harmful (it writes, destroys, runs, opens an address, uses a fixed value
 * the user never gave) or when it is a rule on another tool's use ("before using X, call Y"); a
 * change of another call's arguments is strong when it sets a fixed value or targets the user's
 * request. A tool naming itself or its own parameters is describing itself: null.
 */
function steerStrength(hit: HiddenHit, self: Self): boolean | null {
  const steer = hit.steer;
  if (steer === undefined) return null;
  const foreign = (names: readonly string[]) => names.some((name) => !self.names.has(comparable(name)));
  const called = foreign(steer.tools);
  const conditioned = foreign(steer.condTools);
  // "call list_projects, then pass it as `project_id`": a value that names the tool's own parameter says where a result goes.
  const literal = steer.literal && (steer.values.length === 0 || steer.values.some((value) => !self.params.has(comparable(value))));
  if (hit.kind === "tool_chain") return chainStrength({ ...steer, literal }, self, called, conditioned);
  const params = steer.params.some((name) => !self.params.has(comparable(name)));
  if (self.instructions) return literal && (steer.harm || steer.userTarget) ? true : steer.userTarget ? false : null;
  if (!(called || conditioned || steer.userTarget || (params && self.params.size === 0))) return null;
  // Without a fixed value or the user's own request as its target, a change names no harm: not reported.
  return literal || steer.userTarget ? true : null;
}

/** A demanded call of another tool: strong when harmful, pinned to a fixed value, or a rule on another tool's use. */
function chainStrength(steer: Steer, self: Self, called: boolean, conditioned: boolean): boolean | null {
  // "Before using X, send the removed email to ...": a harmful order given as a rule on another tool.
  if (!called) return conditioned && steer.harm && steer.firm && !self.instructions ? true : null;
  // "Use X for Y", "use X instead": how honest tools point to their siblings; a bare "Invoke X for
  // 'Artificial Intelligence'" still pins another call to a value the user never gave.
  if (!steer.firm) return steer.literal && steer.destroy;
  // Instructions order the server's own tools; only a harmful fixed call is suspect there.
  if (self.instructions) return steer.harm && steer.literal ? true : steer.harm || steer.literal ? false : null;
  return steer.harm || steer.literal || conditioned;
}

/** The words of a tool's name and titles: a secret they name is what the tool is about. */
function subjectWords(tool: unknown): ReadonlySet<string> {
  const out = new Set<string>();
  if (!isObject(tool)) return out;
  const annotations = own(tool, "annotations");
  const names = [own(tool, "name"), own(tool, "title"), isObject(annotations) ? own(annotations, "title") : undefined];
  // A title says what the tool is only when it is short; a long one is prose, and can carry an attack.
  for (const text of names) {
    if (typeof text !== "string") continue;
    const words = nameSegments(text.slice(0, 200));
    if (text === names[0] || words.length <= 6) for (const word of words) out.add(word);
  }
  return out;
}

/** A parameter's name or text: what it says it holds is what the model will send. */
function inParameter(path: string): boolean {
  return path.startsWith("/inputSchema/") && path.includes("/properties/");
}

interface Part {
  part: AttackPart;
  strong: boolean;
  hit: HiddenHit;
  at: Located;
  own: boolean;
}

type Judged = Pick<LintFinding, "severity" | "path" | "args">;

/**
 * The findings of one tool (or of the instructions) from the hits of its strings. Hidden
 * characters and comments stand alone. Attack parts are judged together: a secret to read (not the
 * tool's own subject) with where to send it, secrecy or precedence, or a place to send with secrecy
 * or precedence, is one `poisoning` error listing every part; a part hidden in a comment, a blob or
 * look-alike letters counts as secrecy too. Otherwise each strong part is reported at its own
 * severity, a hidden one as a warning; a sink, a weak part (silently, "when this server is connected")
 * and a secret that is the tool's own subject are not reported alone: well-made tools say them.
 */
function judgeParts(located: readonly Located[], subject: ReadonlySet<string>, self: () => Self): Judged[] {
  const out: Judged[] = [];
  const parts: Part[] = [];
  for (const at of located) {
    for (const hit of at.hits) {
      const role = ATTACK_PART[hit.kind];
      if (role === undefined) {
        out.push(finding(HIDDEN_SEVERITY[hit.kind], at, hit));
        continue;
      }
      let strong: boolean = role.strong;
      if (hit.kind === "harmful_action") strong = hit.steer?.destroy === true;
      else if (hit.steer !== undefined && (role.part === "hijack" || hit.kind === "tool_chain")) {
        const judged = steerStrength(hit, self());
        if (judged === null) continue;
        strong = judged;
      }
      // A secret the tool makes or returns, one its name is about, or one a `public_key` field holds is its own.
      const ownSubject =
        role.part === "source" && ((hit.subject ?? []).some((word) => word === OWN_OUTPUT || subject.has(word)) || comparable(at.path).includes("publickey"));
      parts.push({ part: role.part, strong, hit, at, own: ownSubject });
      // A parameter that asks for a secret's content is where the secret goes.
      if (role.part === "source" && hit.asksForContent === true && inParameter(at.path)) parts.push({ part: "sink", strong: true, hit, at, own: false });
    }
  }
  if (parts.length === 0) return out;
  // Another language is no hiding; a comment, a blob or look-alike letters are.
  const hidden = parts.some((part) => part.hit.carrier !== undefined && part.hit.carrier !== "translated");
  const has = (part: AttackPart, strong: boolean | null, own: boolean | null = null) =>
    parts.some((item) => item.part === part && (strong === null || item.strong === strong) && (own === null || item.own === own));
  const foreignSource = has("source", null, false);
  const ownSource = has("source", null, true);
  const sink = has("sink", null);
  const strongSecrecy = has("secrecy", true) || hidden;
  const strongPrecedence = has("precedence", true);
  const anySecrecy = strongSecrecy || has("secrecy", false);
  const anyPrecedence = strongPrecedence || has("precedence", false);
  // Even a tool's own subject never goes to a fixed address outside (an SSH tool mailing the key).
  const outsideSink = parts.some((item) => item.part === "sink" && item.hit.outside === true);
  const strongHijack = has("hijack", true);
  const anyHijack = has("hijack", null);
  const effect = has("effect", null);
  const strongEffect = has("effect", true);
  const poisoned =
    (foreignSource && (sink || anySecrecy || anyPrecedence)) ||
    (ownSource && (strongSecrecy || strongPrecedence || outsideSink)) ||
    (sink && (strongSecrecy || strongPrecedence)) ||
    // Steering another tool's call to a fixed or harmful end, or any steering the user is overruled or kept blind to.
    strongHijack ||
    strongEffect ||
    ((anyHijack || effect) && (strongSecrecy || strongPrecedence));
  if (poisoned) {
    const first = parts.find((item) => item.part === "source") ?? parts.find((item) => item.part === "hijack") ?? (parts[0] as Part);
    const listed: PoisoningPart[] = [];
    const listedKeys = new Set<string>();
    for (const item of parts) {
      const key = `${item.part}\u0000${item.hit.kind}\u0000${item.at.path}`;
      if (listedKeys.has(key)) continue;
      listedKeys.add(key);
      const entry: PoisoningPart = { part: item.part, kind: item.hit.kind, text: item.hit.text, path: item.at.path };
      if (item.hit.carrier !== undefined) entry.carrier = item.hit.carrier;
      listed.push(entry);
    }
    const args: LintArgs = { kind: "poisoning", text: first.hit.text, count: listed.length, parts: listed };
    if (first.at.inKey) args.inKey = true;
    out.push({ severity: "error", path: first.at.path, args });
    return out;
  }
  for (const item of parts) {
    // Hiding a part is a sign of intent: a warning, whatever the part.
    if (item.hit.carrier !== undefined && item.hit.carrier !== "translated") {
      const found = finding(HIDDEN_SEVERITY[item.hit.kind] === "error" ? "error" : "warning", item.at, item.hit);
      if (item.own) found.args.ownSubject = true;
      out.push(found);
      continue;
    }
    // Another tool's call demanded firmly under a threat ("skipping this will corrupt ...") is a warning, even harmless.
    const threatened =
      item.hit.kind === "tool_chain" && item.hit.steer?.firm === true && parts.some((other) => other.hit.kind === "coercion" && other.at === item.at);
    if (threatened && !item.strong) {
      out.push(finding("warning", item.at, item.hit));
      continue;
    }
    // Alone, a sink, a weak part and a tool's own subject say nothing a well-made tool does not say.
    if (item.part === "sink" || !item.strong || item.own) continue;
    out.push(finding(HIDDEN_SEVERITY[item.hit.kind], item.at, item.hit));
  }
  return out;
}

function finding(severity: Severity, at: Located, hit: HiddenHit): Judged {
  const args: LintArgs = { kind: hit.kind, text: hit.text, count: hit.count };
  if (at.inKey) args.inKey = true;
  if (hit.carrier !== undefined) args.carrier = hit.carrier;
  return { severity, path: at.path, args };
}

/** S8 on the server's instructions alone; findings are server-level (`tool` null) with `where: "instructions"`. */
export function scanInstructionsHiddenText(instructions: string | null | undefined): LintFinding[] {
  if (typeof instructions !== "string") return [];
  const hits = scanText(instructions);
  if (hits.length === 0) return [];
  const server: Self = { names: new Set(), params: new Set(), instructions: true };
  return judgeParts([{ hits, path: "", inKey: false }], new Set(), () => server).map((found) => ({
    rule: "S8",
    severity: found.severity,
    tool: null,
    toolIndex: null,
    path: null,
    args: { ...found.args, where: "instructions" },
  }));
}

/** S8 rule. */
export const s8HiddenText: Rule = {
  id: "S8",
  check(context, report) {
    // One memory for the whole run: tools share most of their keys and many values.
    const memo = new ScanMemo();
    for (const view of context.tools) {
      for (const finding of toolFindings(view.definition, view.index, memo)) report.tool(view, finding.severity, finding.path, finding.args);
    }
    for (const finding of scanInstructionsHiddenText(context.instructions)) report.server(finding.severity, finding.args);
  },
};
