/**
 * Which URIs a resource template stands for, and the loose form in which the guard compares a read
 * with what it withheld. Pure; no regular expression is built from server text, so a hostile
 * template costs at most its length times the URI's.
 */

/** Longest URI, and longest template, that is matched; past either the answer is "unknown". */
export const MAX_MATCH_LENGTH = 4_096;

/** One step of a compiled template: a literal character, or a run of characters an expression expands to. */
type Step = { literal: string } | { run: "segment" | "any"; optional: boolean };

/** Whether a URI fits a template: `unknown` when either is too long to decide. */
export type TemplateMatch = "yes" | "no" | "unknown";

/**
 * Match a URI against an RFC 6570 template as a server's router would read it: literal text as is,
 * a simple `{name}` (also `.`, `;`) as one or more characters other than `/`, a reserved `{+name}`,
 * `{#name}` or path `{/name}` as one or more characters of any kind, a query `{?a,b}` or `{&a}` as
 * any characters, none included. With `loose`, both sides are compared in their loose form
 * (looseUri), as a refusal is: a URI that differs from a withheld template's only in case or
 * escaping is still refused.
 */
export function matchTemplate(template: string, uri: string, loose = false): TemplateMatch {
  if (template.length > MAX_MATCH_LENGTH || uri.length > MAX_MATCH_LENGTH) return "unknown";
  const steps = compile(template, loose);
  const text = loose ? looseUri(uri) : uri;
  return runs(steps, text) ? "yes" : "no";
}

function compile(template: string, loose: boolean): Step[] {
  const steps: Step[] = [];
  let literal = "";
  const flush = () => {
    const text = loose ? looseText(literal) : literal;
    // By UTF-16 unit, as the run below reads the URI.
    for (let at = 0; at < text.length; at++) steps.push({ literal: text.charAt(at) });
    literal = "";
  };
  for (let index = 0; index < template.length; index++) {
    const character = template.charAt(index);
    const close = character === "{" ? template.indexOf("}", index + 1) : -1;
    if (close < 0) {
      literal += character;
      continue;
    }
    flush();
    const operator = template.charAt(index + 1);
    if (operator === "?" || operator === "&") steps.push({ run: "any", optional: true });
    else if (operator === "+" || operator === "#" || operator === "/") steps.push({ run: "any", optional: false });
    else steps.push({ run: "segment", optional: false });
    index = close;
  }
  flush();
  return steps;
}

/** An NFA run over the steps: the set of places the match can be, one character at a time. */
function runs(steps: readonly Step[], text: string): boolean {
  // Place i: before step i; place i + steps.length: inside run i with at least one character taken.
  const size = steps.length;
  let current = new Uint8Array(2 * size + 1);
  let next = new Uint8Array(2 * size + 1);
  const close = (places: Uint8Array) => {
    // Runs that may be empty, and runs already begun, may be left before the next character.
    for (let at = 0; at < size; at++) {
      const step = steps[at] as Step;
      if (!("run" in step)) continue;
      if ((places[at] === 1 && step.optional) || places[at + size + 1] === 1) places[at + 1] = 1;
    }
  };
  current[0] = 1;
  close(current);
  for (let position = 0; position < text.length; position++) {
    const character = text.charAt(position);
    next.fill(0);
    let alive = false;
    for (let at = 0; at < size; at++) {
      const step = steps[at] as Step;
      const here = current[at] === 1;
      const inside = current[at + size + 1] === 1;
      if (!here && !inside) continue;
      if ("literal" in step) {
        if (here && step.literal === character) {
          next[at + 1] = 1;
          alive = true;
        }
      } else if (step.run === "any" || character !== "/") {
        next[at + size + 1] = 1;
        alive = true;
      }
    }
    if (!alive) return false;
    close(next);
    [current, next] = [next, current];
  }
  return current[size] === 1;
}

/**
 * A URI as the guard compares it with a withheld one: escapes decoded (twice encoded too),
 * compatibility forms folded (NFKC), lower case, invisible characters dropped, backslashes as
 * slashes, `.` and `..` segments resolved, repeated and trailing slashes and the fragment dropped.
 * Two spellings a server may well read as one resource come out the same; the form is for
 * comparing only, never sent.
 */
export function looseUri(uri: string): string {
  let text = looseText(uri.length > MAX_MATCH_LENGTH ? uri.slice(0, MAX_MATCH_LENGTH) : uri);
  const fragment = text.indexOf("#");
  if (fragment >= 0) text = text.slice(0, fragment);
  return withoutDotSegments(text).replace(/\/+$/, "");
}

/** looseUri's character-level part, which also applies to a template's literal text. */
function looseText(text: string): string {
  let decoded = text;
  for (let round = 0; round < 3 && decoded.includes("%"); round++) decoded = percentDecoded(decoded);
  return decoded
    .normalize("NFKC")
    .toLowerCase()
    .replace(INVISIBLE, "")
    .replaceAll("\\", "/")
    .replace(/\/{2,}/g, "/");
}

/** Zero-width, bidi and TAG characters: a server that ignores them reads the same name. */
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\u{e0000}-\u{e007f}]/gu;

function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      // Not UTF-8: each byte as the character of that code, consistently for both sides.
      return run.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    }
  });
}

/** `a/b/../c/./d` as `a/c/d`; a `..` never climbs above the first segment (the scheme and authority). */
function withoutDotSegments(text: string): string {
  const segments = text.split("/");
  const out: string[] = [];
  for (const [index, segment] of segments.entries()) {
    if (segment === "." && index > 0) continue;
    if (segment === ".." && index > 0) {
      if (out.length > 1) out.pop();
      continue;
    }
    out.push(segment);
  }
  return out.join("/");
}
