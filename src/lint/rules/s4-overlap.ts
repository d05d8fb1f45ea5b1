/** S4: two tools that overlap: similar name and description (TF-IDF cosine >= 0.5), or one retired for the other, and at least half their parameters shared. */

import type { ToolView } from "../context.js";
import { isObject, own } from "../json.js";
import { replacementNamed } from "../replacement.js";
import { similarPairs } from "../similarity.js";
import { isVerb, nameSegments, segmentTerms, stem, verbGroup } from "../text.js";
import type { Rule } from "./rule.js";

/** Cosine similarity from which two tools' texts count as similar. */
export const OVERLAP_COSINE = 0.5;

// Parameters that shape any call (paging, sorting, output format) say nothing about what a tool
// is for; two tools sharing only these do not take the same input.
const GENERIC_PARAMS = new Set(
  (
    "limit offset page perpage pagesize pagenumber cursor startcursor nextcursor pagetoken nexttoken maxresults " +
    "sort sortby order orderby direction format responseformat outputformat verbose fields timeout timeoutms"
  ).split(" "),
);

// Words in a name that join or qualify rather than name the thing acted on. After a connector the
// name describes a variant (`list_directory_with_sizes`), so the head noun comes before it.
const ARTICLES = new Set(["a", "an", "the"]);
const CONNECTORS = new Set("of with by for in from to and or".split(" "));
const VIEW_WORDS = new Set("info detail details data profile summary content contents text metadata raw full".split(" "));

const VERSION = /^v?[0-9]+$/;

/** What a name acts on, and whether that word stands before the verb. */
interface Head {
  noun: string;
  /**
   * The noun comes from the words before the verb (`notes_search`, `kubectl_get`): nothing after the
   * verb names an object. Such a word may be an object or a namespace (a command, a service), so the
   * name is compared only with names that use the same verb word: `notes_search` with
   * `search_notes_text`, never `kubectl_get` with `kubectl_describe`.
   */
  beforeVerb: boolean;
}

/**
 * What a name says the tool acts on: its head noun, the last segment before any connector
 * (`list_directory_with_sizes` -> directory), skipping a service prefix, verbs, articles, trailing
 * view words (`get_user_info` -> user) and numbers or versions (`search_v2`). When nothing after the
 * verb names an object, the words before it do, in any order (`notes_search` and `notes_search_text`
 * act on notes, as `search_notes` does), a service prefix included if it is all there is. Not
 * stemmed: `get_user` and `get_users` fetch one item and a collection. Null when the name names no
 * object (`search`).
 */
function headNoun(view: ToolView, common: ReadonlySet<string>): Head | null {
  const main: string[] = [];
  // Segments before the first verb are a prefix (`kubectl_get`, `github_create_issue`), not an object.
  const verbAt = view.segments.findIndex((segment) => isVerb(segment));
  for (const raw of view.segments.slice(Math.max(0, verbAt))) {
    if (CONNECTORS.has(raw)) break;
    if (ARTICLES.has(raw) || isVerb(raw) || common.has(stem(raw)) || VERSION.test(raw)) continue;
    main.push(raw);
  }
  let end = main.length;
  while (end > 0 && VIEW_WORDS.has(main[end - 1] as string)) end--;
  if (end > 0) return { noun: main[end - 1] as string, beforeVerb: false };
  if (verbAt > 0) {
    const before = view.segments.slice(0, verbAt).filter((raw) => !ARTICLES.has(raw) && !CONNECTORS.has(raw) && !VERSION.test(raw) && !VIEW_WORDS.has(raw));
    const unshared = before.filter((raw) => !common.has(stem(raw)));
    const words = unshared.length > 0 ? unshared : before;
    const noun = words[words.length - 1];
    if (noun !== undefined) return { noun, beforeVerb: true };
  }
  // Only view words (`get_info`): the first of them, as before.
  return main.length > 0 ? { noun: main[0] as string, beforeVerb: false } : null;
}

/**
 * The words of a name that say what the tool does to what: verbs as their kind (so `get` and `read`
 * are one word), nouns stemmed, without articles, connectors, view words or versions.
 */
function nameWords(view: ToolView): Set<string> {
  const out = new Set<string>();
  for (const raw of view.segments) {
    if (ARTICLES.has(raw) || CONNECTORS.has(raw) || VIEW_WORDS.has(raw) || VERSION.test(raw)) continue;
    out.add(isVerb(raw) ? `verb:${verbGroup([raw])}` : stem(raw));
  }
  return out;
}

/**
 * True when each name has a word the other lacks: one swapped for another (`power_on` / `power_off`,
 * `begin_transaction` / `commit_transaction`, `stories_create_comment` / `epics_create_comment`,
 * `get_mysql_config` / `get_opensearch_config`) names another action or another thing. A name that
 * only adds words to the other's (`read_file` / `read_text_file`) is a variant of it, which S4 compares.
 */
function wordSwapped(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const lacks = (from: ReadonlySet<string>, to: ReadonlySet<string>) => [...from].some((word) => !to.has(word));
  return lacks(a, b) && lacks(b, a);
}

/**
 * A service prefix or suffix most tool names carry (`github_*`, `API-*`, `*_exa`): no evidence of
 * overlap. Only the first and last segments count; a word many names share in the middle (`file`
 * in a filesystem server) still names what the tools act on.
 */
function commonSegments(tools: readonly ToolView[]): Set<string> {
  const out = new Set<string>();
  if (tools.length < 3) return out;
  for (const pick of [(segments: string[]) => segments[0], (segments: string[]) => segments[segments.length - 1]]) {
    const counts = new Map<string, number>();
    for (const view of tools) {
      const segment = pick(view.segments);
      if (segment !== undefined) counts.set(stem(segment), (counts.get(stem(segment)) ?? 0) + 1);
    }
    for (const [segment, count] of counts) if (count >= tools.length * 0.7) out.add(segment);
  }
  return out;
}

/** Parameters nearly every tool takes (an API version header, a workspace id): no evidence either. */
function ubiquitousParams(tools: readonly ToolView[]): Set<string> {
  const counts = new Map<string, number>();
  for (const view of tools) for (const name of view.params) counts.set(name, (counts.get(name) ?? 0) + 1);
  const out = new Set<string>();
  if (tools.length < 5) return out;
  for (const [name, count] of counts) if (count >= tools.length * 0.9) out.add(name);
  return out;
}

// The last word of a parameter that names an identifier (`teamId`, `issue_key`, `pull_number`);
// the word before it is the thing identified. A credential (`api_key`) identifies no object.
const ID_WORDS = new Set("id ids uuid uuids guid gid identifier identifiers slug key keys number num".split(" "));
const CREDENTIAL_WORDS = new Set("api access secret auth license signing".split(" "));
// Words between the thing and its identifier word that qualify the identifier (`storyPublicId`, `private_key`).
const ID_QUALIFIERS = new Set("public private internal external unique global local short full display numeric custom".split(" "));

/** What a tool's parameters identify: the things its required identifiers name, and the things any of its parameters can name. */
interface Identity {
  /** Stemmed nouns of the required identifying parameters (`teamId` -> team). */
  required: Set<string>;
  /** Stemmed nouns of every identifying parameter, required or not. */
  takes: Set<string>;
  /** A bare `id` (or `identifier`), which may identify anything. */
  bare: boolean;
}

/** The identity a tool's root parameters carry. */
function identityOf(view: ToolView): Identity {
  const identity: Identity = { required: new Set(), takes: new Set(), bare: false };
  const required = isObject(view.inputSchema) ? own(view.inputSchema, "required") : undefined;
  const requiredNames = new Set(Array.isArray(required) ? required.filter((name): name is string => typeof name === "string") : []);
  for (const name of view.params) {
    const segments = nameSegments(name);
    const last = segments[segments.length - 1];
    if (last === undefined || !ID_WORDS.has(last) || GENERIC_PARAMS.has(name.toLowerCase().replace(/[-_]/g, ""))) continue;
    let at = segments.length - 2;
    while (at >= 0 && ID_QUALIFIERS.has(segments[at] as string)) at--;
    const noun = segments[at];
    if (noun === undefined) {
      if (last === "id" || last === "ids" || last === "identifier" || last === "uuid") identity.bare = true;
      continue;
    }
    if (CREDENTIAL_WORDS.has(noun)) continue;
    identity.takes.add(stem(noun));
    if (requiredNames.has(name)) identity.required.add(stem(noun));
  }
  return identity;
}

/**
 * The two tools act on different things by their input: one requires an identifier of a thing the
 * other cannot be given at all (`getTeamDocuments` needs a `teamId`, `getIssueDocuments` takes none,
 * and the other way round). However alike their words, they answer for different objects.
 */
function identitiesDiffer(a: Identity, b: Identity): boolean {
  const lacks = (from: Identity, to: Identity) => !to.bare && [...from.required].some((noun) => !to.takes.has(noun));
  return lacks(a, b) || lacks(b, a);
}

/** Most overlaps reported per tool (the closest ones); the message gives the total. */
export const MAX_OVERLAPS_SHOWN = 3;

/** Most candidate pairs S4 looks at before it stops; far above any real server, it bounds a hostile one. */
export const OVERLAP_BUDGET = 2_000_000;

/** One overlap a tool keeps: the other tool, their cosine, and whether a description retires one for the other. */
interface Overlap {
  other: number;
  cosine: number;
  /** `deprecated`: this tool says the other replaces it; `replacement`: the other says this one replaces it. */
  pointer: "deprecated" | "replacement" | null;
}

/** Closest first: a pair a description declares before any pair found by similarity, then by cosine. */
function closer(x: Overlap, y: Overlap): number {
  return Number(y.pointer !== null) - Number(x.pointer !== null) || y.cosine - x.cosine || x.other - y.other;
}

/** S4 rule. */
export const s4Overlap: Rule = {
  id: "S4",
  check(context, report) {
    const tools = context.tools;
    if (tools.length < 2) return;
    const common = commonSegments(tools);
    const heads = tools.map((view) => headNoun(view, common));
    const everywhere = ubiquitousParams(tools);
    const evidence = (name: string) => !everywhere.has(name) && !GENERIC_PARAMS.has(name.toLowerCase().replace(/[-_]/g, ""));
    const params = tools.map((view) => new Set(view.params.filter(evidence)));
    const verbs = tools.map((view) => verbGroup(view.segments));
    const verbWords = tools.map((view) => view.segments.find((segment) => isVerb(segment)) ?? null);
    const identities = tools.map(identityOf);
    const words = tools.map(nameWords);
    // Blocks: tools whose names act on the same thing (same head noun) with the same kind of verb. A
    // name without a head noun is not compared; one without a known verb joins every verb's block.
    const byHead = new Map<string, { verbs: Map<number, number[]>; none: number[] }>();
    heads.forEach((head, index) => {
      if (head === null || (params[index] as Set<string>).size === 0) return;
      let entry = byHead.get(head.noun);
      if (entry === undefined) {
        entry = { verbs: new Map(), none: [] };
        byHead.set(head.noun, entry);
      }
      const verb = verbs[index] ?? null;
      if (verb === null) entry.none.push(index);
      else {
        const members = entry.verbs.get(verb);
        if (members === undefined) entry.verbs.set(verb, [index]);
        else members.push(index);
      }
    });
    const blocks: number[][] = [];
    for (const { verbs: byVerb, none } of byHead.values()) {
      if (byVerb.size === 0) blocks.push(none);
      for (const members of byVerb.values()) blocks.push(none.length === 0 ? members : [...members, ...none].sort((x, y) => x - y));
    }
    const accept = (a: number, b: number): boolean => {
      // Tools named for different actions (get / delete) do different things, however alike their text.
      const verbA = verbs[a] ?? null;
      const verbB = verbs[b] ?? null;
      if (verbA !== null && verbB !== null && verbA !== verbB) return false;
      // A noun before the verb may be a namespace: `kubectl_get` and `kubectl_describe` are two commands.
      if ((heads[a]?.beforeVerb === true || heads[b]?.beforeVerb === true) && verbWords[a] !== verbWords[b]) return false;
      // Same name twice is name-unique's finding, not an overlap.
      if ((tools[a] as ToolView).name === (tools[b] as ToolView).name) return false;
      // A word swapped for another (`power_on` / `power_off`, `get_mysql_config` / `get_opensearch_config`) is another action or thing.
      if (wordSwapped(words[a] as Set<string>, words[b] as Set<string>)) return false;
      // Required identifiers of different things (team_id / issue_id): different objects, not one job twice.
      if (identitiesDiffer(identities[a] as Identity, identities[b] as Identity)) return false;
      return sharesHalf(params[a] as Set<string>, params[b] as Set<string>);
    };
    // A description that retires its tool for another one ("Deprecated: use X instead") is the
    // server saying the two do one job, whatever their names and wording; the parameters must still
    // match. One pointer per tool, so this stays linear.
    const names = new Map<string, number>();
    for (const view of tools) if (typeof own(view.definition, "name") === "string" && !names.has(view.name)) names.set(view.name, view.index);
    const pointers = new Map<number, number>();
    for (const view of tools) {
      if (view.description === null || (params[view.index] as Set<string>).size === 0) continue;
      const target = replacementNamed(view.description, names, view.index);
      if (target === null || (tools[target] as ToolView).name === view.name) continue;
      if (sharesHalf(params[view.index] as Set<string>, params[target] as Set<string>)) pointers.set(view.index, target);
    }
    // A served string name is already split in the view; a missing one reads as `#N`.
    const documents = tools.map((view) =>
      segmentTerms(typeof own(view.definition, "name") === "string" ? view.segments : nameSegments(view.name), view.description ?? ""),
    );
    // Each tool keeps its closest overlaps only: a tool that overlaps dozens of others needs one
    // message saying so, not dozens, and memory stays linear in the number of tools.
    const closest = new Map<number, Overlap[]>();
    const counts = new Map<number, number>();
    const keep = (tool: number, overlap: Overlap) => {
      const list = closest.get(tool) ?? [];
      list.push(overlap);
      if (list.length > MAX_OVERLAPS_SHOWN * 4) {
        list.sort(closer);
        list.length = MAX_OVERLAPS_SHOWN;
      }
      closest.set(tool, list);
      counts.set(tool, (counts.get(tool) ?? 0) + 1);
    };
    const exhausted = similarPairs(documents, blocks, OVERLAP_COSINE, accept, OVERLAP_BUDGET, ({ a, b, cosine }) => {
      keep(a, { other: b, cosine, pointer: null });
      keep(b, { other: a, cosine, pointer: null });
      // Similar enough on their own: one finding per side is enough.
      if (pointers.get(a) === b) pointers.delete(a);
      if (pointers.get(b) === a) pointers.delete(b);
    });
    for (const [retired, replacement] of pointers) {
      // Two tools that each point at the other are one pair.
      if (pointers.get(replacement) === retired && replacement < retired) continue;
      keep(retired, { other: replacement, cosine: 0, pointer: "deprecated" });
      keep(replacement, { other: retired, cosine: 0, pointer: "replacement" });
    }
    for (const [index, list] of [...closest].sort((x, y) => x[0] - y[0])) {
      const view = tools[index] as ToolView;
      list.sort(closer);
      for (const { other, cosine, pointer } of list.slice(0, MAX_OVERLAPS_SHOWN)) {
        const partner = tools[other] as ToolView;
        const shared = [...(params[index] as Set<string>)].filter((name) => (params[other] as Set<string>).has(name));
        const count = counts.get(index) ?? 1;
        if (pointer === null) report.tool(view, "warning", null, { other: partner.name, similarity: Math.round(cosine * 100) / 100, shared, count });
        // The deprecated tool's own description holds the evidence; its replacement is flagged as a whole.
        else report.tool(view, "warning", pointer === "deprecated" ? "/description" : null, { reason: pointer, other: partner.name, shared, count });
      }
    }
    if (exhausted) report.server("info", { reason: "budget", count: OVERLAP_BUDGET, total: tools.length });
  },
};

/**
 * At least one parameter in common, and the common ones are at least half of each tool's
 * parameters. Tools without (non-generic) parameters are not compared: nothing shows they take
 * the same input.
 */
function sharesHalf(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0 || small.size * 2 < large.size) return false;
  let common = 0;
  for (const name of small) if (large.has(name)) common++;
  return common > 0 && common * 2 >= large.size;
}
