/** $defs and definitions: text compared per name where it sits; what validates is judged where it is referenced. */

import { emit, keyPath, malformed, type Rule, type SchemaNode } from "../context.js";
import { onlyText } from "../finding.js";
import { childPath, hasNewWords, isObject, own } from "../json.js";

// A definition only constrains through the references that reach it, and the references rule compares what
// they reach. So here a definition changing is structural (reported once, where it is defined), its text is
// text, and `definitions` and `$defs` are one namespace: moving a definition between them changes nothing.
// A definition no reference reaches (in either document) changes nothing at all: its edits are flagged
// `unreferenced` and `info`. Identifiers inside are the exception: a new `$id` or anchor is a widening
// wherever it sits, since a reference from elsewhere may now land on it.

interface Entry {
  readonly path: string;
  readonly keyword: string;
  readonly name: string;
  readonly value: unknown;
}

/** Definitions by name across both keywords; a name used under both keeps them apart. */
function entries(node: SchemaNode, side: "before" | "after", keys: readonly string[]): Map<string, Entry> {
  const schema = node[side];
  const all: Entry[] = [];
  for (const keyword of keys) {
    const map = own(schema, keyword);
    if (!isObject(map)) continue;
    const base = keyPath(node, keyword);
    for (const name of Object.keys(map)) all.push({ path: childPath(base, name), keyword, name, value: map[name] });
  }
  const counts = new Map<string, number>();
  for (const e of all) counts.set(e.name, (counts.get(e.name) ?? 0) + 1);
  return new Map(all.map((e) => [(counts.get(e.name) ?? 0) > 1 ? `${e.keyword}\u0000${e.name}` : e.name, e] as const));
}

/** $defs, definitions. */
export const definitionsRule: Rule = {
  roles: ["namedSchemas"],
  run(node, keys) {
    const valid = keys.filter((key) => !malformed(node, key, isObject));
    const before = entries(node, "before", valid);
    const after = entries(node, "after", valid);
    for (const [id, now] of after) {
      const was = before.get(id);
      if (was === undefined) {
        emit(node, "name_added", now.path, { keyword: now.keyword, name: now.name });
        continue;
      }
      const findings = node.engine.diff(was.value, now.value, now.path, node.depth + 1);
      for (const f of findings) if (f.kind === "text" || f.reason === "identifier_changed") node.out.push(f);
      if (!onlyText(findings.filter((f) => f.reason !== "identifier_changed"))) {
        // Unreferenced, it validates nothing, but the model still reads it: new words in it (a
        // `required` name, an enum value, a property name) that no text finding reported keep this change a warning.
        const textSeen = findings.some((f) => f.kind === "text") || !hasNewWords(was.value, now.value);
        const unused = textSeen && !node.engine.referenced("before", was.value) && !node.engine.referenced("after", now.value);
        const flags = unused ? ({ info: true, unreferenced: true } as const) : undefined;
        emit(node, "definition_changed", now.path, { keyword: now.keyword, name: now.name }, flags);
      }
    }
    // A removed definition takes its text along: that is part of the removal, not a text change of its own.
    for (const [id, was] of before) {
      if (after.has(id)) continue;
      const unused = !node.engine.referenced("before", was.value);
      const flags = unused ? ({ info: true, unreferenced: true } as const) : undefined;
      emit(node, "definition_removed", was.path, { keyword: was.keyword, name: was.name }, flags);
    }
  },
};
