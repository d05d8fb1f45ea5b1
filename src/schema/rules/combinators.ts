/** allOf, anyOf and oneOf: members are matched order-insensitively, then judged by how the combination reacts. */

import { acceptsNoMoreThan, emit, keyPath, malformed, narrowerOrEqual, type Rule, type SchemaNode, textAdded } from "../context.js";
import { hasWidening, type SchemaFinding, sameValidation } from "../finding.js";
import { canonical, childPath, isObject, mentionsAny, own } from "../json.js";
import { keywordInfo, linkKeywords } from "../keywords.js";
import { describeSchema } from "../restructure.js";
import { containsText, isTrivial } from "../shape.js";

type Combine = "all" | "any" | "one";

const REF_KEYS: ReadonlySet<string> = new Set(linkKeywords("ref"));

// Pairing tries every leftover pair; past this many pairs we skip straight to the conservative outcome.
const MAX_TRIAL_PAIRS = 1024;

/** allOf, anyOf, oneOf. */
export const combinatorsRule: Rule = {
  roles: ["schemaList"],
  run(node, keys) {
    for (const key of keys) {
      if (malformed(node, key, Array.isArray)) continue;
      const combine = keywordInfo(key).combine ?? "all";
      const before = own(node.before, key);
      const after = own(node.after, key);
      const path = keyPath(node, key);
      if (Array.isArray(before) && Array.isArray(after)) {
        // oneOf counts every non-text change of a branch as a widening.
        if (combine === "one") node.engine.strict(() => compareMembers(node, key, combine, before, after));
        else compareMembers(node, key, combine, before, after);
      } else if (Array.isArray(after)) {
        // A new conjunct or set of alternatives only adds a constraint.
        emit(node, "subschema_added", path, { keyword: key });
        if (after.some((m) => containsText(m))) emit(node, "text_added", path, { keyword: key });
      } else if (Array.isArray(before)) {
        if (combine === "all") allOfRemoved(node, path, before);
        else if (!removalIsHarmless(node, combine, before)) emit(node, "subschema_removed", path, { keyword: key });
      }
    }
  },
};

/** The findings of a chosen pair, or nothing for a deep-equal pair. */
interface Pair {
  readonly b: number;
  readonly a: number;
  readonly findings: readonly SchemaFinding[];
}

function compareMembers(node: SchemaNode, key: string, combine: Combine, before: readonly unknown[], after: readonly unknown[]): void {
  const base = keyPath(node, key);
  const pairs: Pair[] = [];
  const freeB = new Set(before.keys());
  const freeA = new Set(after.keys());
  const take = (pair: Pair): void => {
    pairs.push(pair);
    freeB.delete(pair.b);
    freeA.delete(pair.a);
  };

  // 1. Deep-equal members, as a multiset: reordering is no change at all. A member holding a reference can
  //    look the same and still mean something else (its target changed), so it is never matched by text.
  const beforeText = before.map((m, i) => (mentionsAny(m, REF_KEYS) ? `\u0000before${i}` : canonical(m)));
  const afterText = after.map((m, i) => (mentionsAny(m, REF_KEYS) ? `\u0000after${i}` : canonical(m)));
  const byText = groupBy(freeB, (b) => beforeText[b] ?? "");
  const beforeSet = new Set(beforeText);
  const afterSet = new Set(afterText);
  for (const a of [...freeA]) {
    const b = byText.get(afterText[a] ?? "")?.shift();
    if (b !== undefined) take({ b, a, findings: [] });
  }

  // 2. Pairs that change nothing that matters: for allOf/anyOf the new member is no looser; for oneOf,
  //    where a stricter branch can let more instances through, only text may differ.
  const acceptable = (fs: readonly SchemaFinding[]): boolean => (combine === "one" ? sameValidation(fs) : !hasWidening(fs));
  //    Pairs that change nothing at all go first, then the ones with the fewest findings, so a new member
  //    that fits inside an old one never takes the place of that old member's unchanged copy.
  if (freeA.size * freeB.size <= MAX_TRIAL_PAIRS) {
    const candidates: Pair[] = [];
    for (const a of freeA) {
      for (const b of freeB) {
        const trial = node.engine.tryDiff(before[b], after[a], childPath(base, a), node.depth + 1);
        if (trial !== undefined && acceptable(trial)) candidates.push({ b, a, findings: trial });
      }
    }
    candidates.sort((x, y) => x.findings.length - y.findings.length || x.a - y.a || x.b - y.b);
    for (const pair of candidates) if (freeA.has(pair.a) && freeB.has(pair.b)) take(pair);
  }

  // 3. Members that look like edits of each other (same type and $ref) are compared in place, so a loosened
  //    limit inside a branch is reported as itself rather than as a branch swap.
  const bySignature = groupBy(freeB, (b) => signature(before[b]));
  for (const a of [...freeA]) {
    const b = bySignature.get(signature(after[a]))?.shift();
    if (b === undefined) continue;
    const path = childPath(base, a);
    const findings = node.engine.diff(before[b], after[a], path, node.depth + 1);
    take({ b, a, findings });
    if (combine === "one" && !sameValidation(findings)) emit(node, "one_of_branch_changed", path, { index: a });
  }
  for (const pair of pairs) for (const f of pair.findings) node.out.push(f);

  for (const b of freeB) {
    const path = childPath(base, b);
    // A `false` alternative accepts nothing: adding or dropping one changes nothing.
    if (combine !== "all" && before[b] === false) continue;
    if (combine === "all") {
      // Dropping a conjunct is harmless only if a remaining member already implies it.
      const covered =
        afterSet.has(beforeText[b] ?? "") ||
        (affordable(after, freeB) && after.some((m) => acceptsNoMoreThan(node, before[b], m, path))) ||
        acceptsNoMoreThan(node, before[b], node.after, path);
      emit(node, covered ? "all_of_member_removed_covered" : "all_of_member_removed", path, { index: b });
    } else if (combine === "any") {
      emit(node, "branch_removed", path, { keyword: key, index: b });
    } else {
      emit(node, "one_of_branch_removed", path, { index: b });
    }
  }
  for (const a of freeA) {
    const path = childPath(base, a);
    if (combine !== "all" && after[a] === false) continue;
    if (combine === "all") {
      emit(node, "all_of_member_added", path, { index: a });
    } else if (combine === "any") {
      // A new alternative inside an old one accepts nothing new.
      const covered = beforeSet.has(afterText[a] ?? "") || (affordable(before, freeA) && before.some((m) => narrowerOrEqual(node, m, after[a], path)));
      const args = { keyword: key, index: a, accepts: describeSchema(after[a]) };
      emit(node, covered ? "branch_added_covered" : "branch_added", path, args);
    } else {
      emit(node, "branch_added", path, { keyword: key, index: a, accepts: describeSchema(after[a]) });
    }
    textAdded(node, path, after[a]);
  }
}

/**
 * The whole allOf went away: each member is still implied when the new schema as a whole is at least as
 * strict (its keywords took the member's place, say).
 */
function allOfRemoved(node: SchemaNode, path: string, members: readonly unknown[]): void {
  members.forEach((member, index) => {
    if (isTrivial(member)) return;
    const at = childPath(path, index);
    const covered = acceptsNoMoreThan(node, member, node.after, at);
    emit(node, covered ? "all_of_member_removed_covered" : "all_of_member_removed", at, { index });
  });
}

/** Indexes of members grouped by a key, each group in ascending order. */
function groupBy(indexes: Iterable<number>, keyOf: (index: number) => string): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const index of indexes) {
    const key = keyOf(index);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [index]);
    else group.push(index);
  }
  return groups;
}

/** Whether checking every leftover against every member stays within the pairing cap (else assume "not covered"). */
function affordable(members: readonly unknown[], leftovers: ReadonlySet<number>): boolean {
  return members.length * leftovers.size <= MAX_TRIAL_PAIRS;
}

/**
 * True when dropping the whole anyOf/oneOf cannot accept more: anyOf with a trivial branch or one the new
 * schema as a whole implies, oneOf with a single trivial branch (two would make it reject everything).
 */
function removalIsHarmless(node: SchemaNode, combine: Combine, members: readonly unknown[]): boolean {
  if (combine === "one") return members.length === 1 && isTrivial(members[0]);
  return members.some((m) => isTrivial(m)) || (members.length <= MAX_TRIAL_PAIRS && members.some((m) => narrowerOrEqual(node, m, node.after, node.path)));
}

/** What makes two members look like versions of one another. */
function signature(member: unknown): string {
  if (!isObject(member)) return `!${canonical(member)}`;
  return canonical([own(member, "type") ?? null, own(member, "$ref") ?? null]);
}
