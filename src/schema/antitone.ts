/** Finds schemas reached through $ref from places where stricter means looser (not, if, oneOf, unevaluated*). */

import { finding, type SchemaFinding } from "./finding.js";
import { escapePointer, isObject, type JsonObject, own, unescapePointer } from "./json.js";
import { keywordInfo, keywordsWithRole, linkKeywords } from "./keywords.js";
import { subschemaEntries } from "./shape.js";

// Definitions are compared where they sit, which is sound only while every use is monotone. A definition
// used under `not` (or oneOf, if, a capped contains, an unevaluated* scope) turns a tightening into a widening.

const REF_KEYS = linkKeywords("ref");
const ANCHOR_KEYS = linkKeywords("anchor");
const UNEVALUATED_KEYS = keywordsWithRole("unevaluated");

/** Pointers of sub-schemas referenced from an antitone context; `whole` when a reference may reach anything. */
interface Marks {
  readonly pointers: Set<string>;
  whole: boolean;
}

interface Visit {
  readonly schema: unknown;
  readonly path: string;
  readonly antitone: boolean;
}

/** Every schema object in a document with its pointer, walked with an explicit stack. */
function* schemas(start: Visit): Generator<Visit & { schema: JsonObject }> {
  const stack: Visit[] = [start];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const { schema, path } = visit;
    if (!isObject(schema)) continue;
    // Inside an unevaluated* scope, everything a reference pulls in adds annotations.
    const antitone = visit.antitone || UNEVALUATED_KEYS.some((key) => Object.hasOwn(schema, key));
    yield { schema, path, antitone };
    for (const key of Object.keys(schema)) {
      const info = keywordInfo(key);
      const capped = info.role === "contains" && Object.hasOwn(schema, "maxContains");
      const childAntitone = antitone || info.antitone === true || capped;
      for (const [suffix, sub] of subschemaEntries(info, schema[key])) {
        stack.push({ schema: sub, path: `${path}/${escapePointer(key)}${suffix}`, antitone: childAntitone });
      }
    }
  }
}

function resolvePointer(root: unknown, pointer: string): unknown {
  let node: unknown = root;
  for (const token of pointer.split("/").slice(1).map(unescapePointer)) {
    if (Array.isArray(node)) node = /^(0|[1-9][0-9]*)$/.test(token) ? node[Number(token)] : undefined;
    else if (isObject(node)) node = own(node, token);
    else return undefined;
  }
  return node;
}

function markDocument(root: unknown, marks: Marks): void {
  const anchors = new Map<string, string>();
  let hasRef = false;
  for (const { schema, path } of schemas({ schema: root, path: "", antitone: false })) {
    for (const key of ANCHOR_KEYS) {
      const name = own(schema, key);
      if (typeof name === "string") anchors.set(name, path);
    }
    if (REF_KEYS.some((key) => Object.hasOwn(schema, key))) hasRef = true;
  }
  if (!hasRef) return;

  const queue: Visit[] = [{ schema: root, path: "", antitone: false }];
  const seen = new Set<string>();
  for (let start = queue.pop(); start !== undefined && !marks.whole; start = queue.pop()) {
    for (const { schema, antitone } of schemas(start)) {
      if (!antitone) continue;
      for (const key of REF_KEYS) {
        const ref = own(schema, key);
        if (typeof ref !== "string") continue;
        const target = targetPointer(ref, anchors);
        if (target === undefined || target === "") {
          marks.whole = true;
          return;
        }
        if (seen.has(target)) continue;
        seen.add(target);
        marks.pointers.add(target);
        // The target is used antitone now, and so is everything it references.
        queue.push({ schema: resolvePointer(root, target), path: target, antitone: true });
      }
    }
  }
}

/** The local pointer a reference aims at, or undefined when it cannot be placed in this document. */
function targetPointer(ref: string, anchors: ReadonlyMap<string, string>): string | undefined {
  const hash = ref.indexOf("#");
  if (hash < 0) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(hash + 1));
  } catch {
    return undefined;
  }
  if (fragment === "" || fragment.startsWith("/")) return fragment;
  return anchors.get(fragment);
}

/**
 * Adds a widened finding for each referenced-from-antitone sub-schema that changed structurally. Findings
 * that already widen need nothing more; text changes never change what validates.
 */
export function widenAntitoneTargets(before: unknown, after: unknown, findings: SchemaFinding[]): SchemaFinding[] {
  if (!findings.some((f) => f.kind === "structural")) return findings;
  const marks: Marks = { pointers: new Set(), whole: false };
  markDocument(before, marks);
  if (!marks.whole) markDocument(after, marks);
  if (!marks.whole && marks.pointers.size === 0) return findings;
  const extra = new Map<string, SchemaFinding>();
  for (const f of findings) {
    if (f.kind !== "structural") continue;
    if (marks.whole) {
      extra.set("", finding("referenced_schema_changed", "", { ref: "#" }));
      break;
    }
    for (const pointer of marks.pointers) {
      // A change at, inside or around the target (the whole definition replaced) all count.
      const related = f.path === pointer || f.path.startsWith(`${pointer}/`) || pointer.startsWith(`${f.path}/`);
      if (related && !extra.has(pointer)) {
        extra.set(pointer, finding("referenced_schema_changed", pointer, { ref: `#${pointer}` }));
      }
    }
  }
  return extra.size === 0 ? findings : [...findings, ...extra.values()];
}
