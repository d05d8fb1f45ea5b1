/** S7: a tool that returns a whole collection (a `list_*` or `get_all_*` name, a tree, "Returns all ...") with no limit, paging or filter parameter. */

import { isObject, type JsonObject, own } from "../json.js";
import { isVerb, nameSegments, stem, verbGroup } from "../text.js";
import type { ToolView } from "../context.js";
import type { Rule } from "./rule.js";

// Segments of parameter names that bound or narrow what a list returns.
const BOUNDING = new Set(
  (
    "limit max maximum page pages paging pagination cursor offset skip top first last count size per num depth " +
    "token continuation next start end from to after before since until " +
    "filter filters query q search where match pattern glob prefix contains keyword keywords term terms " +
    "tag tags label labels status state type kind category level levels severity"
  ).split(" "),
);

// A parameter whose name says nothing of the kind can still narrow the list; its description then
// says so ("API group to filter by", "only show namespaced resources").
const BOUNDING_DESCRIPTION =
  /\b(?:filter|filters|filtered|only|limit|limits|maximum|max|page|paginate|cursor|offset|restrict|restricts|narrow|narrows|matching)\b/i;

/** True when a parameter's name or description says it bounds or narrows the result. */
function bounds(name: string, schema: unknown): boolean {
  if (nameSegments(name).some((segment) => BOUNDING.has(segment))) return true;
  const description = isObject(schema) ? own(schema, "description") : undefined;
  return typeof description === "string" && BOUNDING_DESCRIPTION.test(description.slice(0, 500));
}

/** Top-level parameter schemas by name, including those of root combinator branches. */
function parameterSchemas(inputSchema: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!isObject(inputSchema)) return out;
  const collect = (schema: unknown) => {
    const properties = isObject(schema) ? own(schema, "properties") : undefined;
    if (!isObject(properties)) return;
    for (const name of Object.keys(properties)) if (!out.has(name)) out.set(name, (properties as JsonObject)[name]);
  };
  collect(inputSchema);
  for (const keyword of ["anyOf", "oneOf", "allOf"]) {
    const branches = own(inputSchema, keyword);
    if (Array.isArray(branches)) for (const branch of branches as unknown[]) collect(branch);
  }
  return out;
}

/**
 * Where the list verb sits in a name's segments, or -1: `list` (or `get` + `all`) first, or after
 * prefix segments that are not verbs themselves (`github_list_issues`), and followed by what is
 * listed (or nothing, for a tool named just `list`). `get_todo_list` and `todo_list` are nouns.
 */
function listVerbAt(segments: readonly string[]): number {
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index] as string;
    if (segment === "list" && (index + 1 < segments.length || index === 0)) return index;
    if (segment === "get" && segments[index + 1] === "all") return index;
    if (isVerb(segment)) return -1;
  }
  return -1;
}

// What separates the user's collection from the server's own setup. A list of the user's data grows
// with use: notes, files, issues, processes, console messages, the entities of a knowledge graph.
// A list of the server's setup is fixed by its code, its launch or its configuration, or holds only
// what this client opened: allowed directories and roots, capabilities and features, versions, the
// server's tools, prompts and resource templates, settings and environment variables, supported
// languages and formats, open sessions and the searches and transactions this client started. The words below name the second kind; one of them in the
// name (or in the description's first sentence, for the stricter second set) keeps S7 quiet on a
// tool that takes no input.
const CONFIG_NAME_WORDS = new Set(
  (
    "allowed permitted accessible access config configs configuration configurations configured setting settings " +
    "option options preference preferences capability capabilities feature features version versions " +
    "tool tools prompt prompts root roots env environment environments variable variables permission permissions " +
    "scope scopes supported session sessions searches transaction transactions connection connections type types kind kinds format formats " +
    "language languages locale locales timezone timezones command commands"
  ).split(" "),
);
// Description words are ordinary prose, so only words that cannot describe user data count there.
const CONFIG_TEXT_WORDS = new Set(
  "allowed permitted configured configuration configurations config settings environment capabilities supported versions tools prompts".split(" "),
);

/** True when these words say the list is of the server's own setup (`resource templates` counts as a pair). */
function namesSetup(words: readonly string[], vocabulary: ReadonlySet<string>): boolean {
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as string;
    if (vocabulary.has(word)) return true;
    if ((word === "template" || word === "templates") && (words[index - 1] === "resource" || words[index - 1] === "resources")) return true;
  }
  return false;
}

// Nouns that are collections in the singular: reading the entire one returns all of its items.
const COLLECTIONS = new Set(
  "graph tree history list listing collection catalog catalogue inventory database table log logs index hierarchy archive feed timeline backlog".split(" "),
);

/** True for a word that reads as a plural noun (`notes`, `processes`, `entries`). */
function plural(word: string): boolean {
  return word.length > 3 && stem(word) !== word;
}

// The first sentence of a description, word by word: "<verb> [the] <all|every|entire|whole|recursive> <things>".
const RETURN_VERBS = new Set(
  (
    "return returns get gets read reads list lists show shows fetch fetches retrieve retrieves dump dumps " +
    "print prints display displays view views output outputs"
  ).split(" "),
);
const LEAD = new Set(["this", "tool", "it", "will", "that", "simply"]);
const DETERMINERS = new Set(["the", "a", "an", "your", "my", "our", "their", "back", "of", "this", "its", "single"]);
const TOTAL = new Set(["all", "every", "entire", "whole", "recursive"]);
// Where the things end and a qualifier begins: "all network requests | since loading the page".
const PHRASE_END = new Set("in on at of for from with within by that which who whose since across under to as and or but if when where while via".split(" "));
// "every 5 minutes", "every time": how often, not what.
const NOT_THINGS = new Set("time times minute minutes hour hours day days second seconds call calls run runs".split(" "));

const FIRST_WORDS = /[\p{L}\p{N}]{1,40}/gu;

/** Lower-case words of a description's first sentence (at most its first 400 characters). */
function firstSentence(description: string): string[] {
  const head = description.slice(0, 400);
  const end = head.search(/[.!?](?:\s|$)|\n\s*\n/);
  return (end >= 0 ? head.slice(0, end) : head).toLowerCase().match(FIRST_WORDS) ?? [];
}

/**
 * The words of a description's first sentence that say it returns a whole collection ("returns all
 * console messages", "read the entire knowledge graph", "get a recursive tree view"), or null. The sentence must open with
 * a returning verb, so "Cleanup all managed resources" and "Get the combined status of all status
 * checks" do not count: the first changes things, the second returns one status.
 */
function wholeCollectionPhrase(words: readonly string[]): string | null {
  let at = 0;
  while (at < 2 && LEAD.has(words[at] ?? "")) at++;
  if (!RETURN_VERBS.has(words[at] ?? "")) return null;
  const start = at;
  at++;
  while (DETERMINERS.has(words[at] ?? "")) at++;
  const total = words[at];
  if (total === undefined || !TOTAL.has(total)) return null;
  at++;
  while (DETERMINERS.has(words[at] ?? "")) at++;
  const things: string[] = [];
  while (things.length < 3 && at < words.length && !PHRASE_END.has(words[at] as string)) things.push(words[at++] as string);
  if (things.length === 0) return null;
  const found =
    total === "every"
      ? !NOT_THINGS.has(things[0] as string) && !/^[0-9]/.test(things[0] as string)
      : total === "all"
        ? things.some((word) => plural(word) || COLLECTIONS.has(word))
        : things.some((word) => COLLECTIONS.has(word) || (total === "recursive" && word === "structure"));
  return found ? words.slice(start, at).join(" ") : null;
}

// After a connector the name describes a variant (`list_directory_with_sizes` lists a directory).
const CONNECTORS = new Set("of with by for in from to and or".split(" "));
const VERSION = /^v?[0-9]+$/;

/** The last word of what a list name lists (`list_open_issues` -> issues), skipping `all`, articles and versions. */
function listedThing(after: readonly string[]): string | undefined {
  let last: string | undefined;
  for (const segment of after) {
    if (CONNECTORS.has(segment)) break;
    if (segment !== "all" && segment !== "the" && !VERSION.test(segment)) last = segment;
  }
  return last;
}

const READ = verbGroup(["get"]);
const LIST = verbGroup(["list"]);

/** What an S7 finding on a tool says: how many parameters it has and, off the `list_*` names, why it counts. */
interface Unbounded {
  count: number;
  reason?: "described" | "tree" | "collection";
  text?: string;
}

/** Why a tool returns a whole collection, or null when it does not say it does. Bounding parameters are checked after. */
function wholeCollection(view: ToolView): Unbounded | null {
  const at = listVerbAt(view.segments);
  // A list that takes input lists what the caller names (a directory, a repository).
  if (at >= 0 && view.params.length > 0) return { count: view.params.length };
  // Off the list names, only a tool that reads, or names no action, returns things.
  const group = verbGroup(view.segments);
  if (at < 0 && group !== null && group !== READ && group !== LIST) return null;
  // What the server holds because of how it is set up is not the user's collection.
  if (namesSetup(view.segments, CONFIG_NAME_WORDS)) return null;
  const sentence = view.description === null ? [] : firstSentence(view.description);
  if (namesSetup(sentence, CONFIG_TEXT_WORDS)) return null;
  const phrase = wholeCollectionPhrase(sentence);
  if (at >= 0) {
    const last = listedThing(view.segments.slice(at + 1));
    const collection = view.segments.includes("all") || phrase !== null || (last !== undefined && (plural(last) || COLLECTIONS.has(last)));
    return collection ? { count: 0 } : null;
  }
  if (phrase !== null) return { count: view.params.length, reason: "described", text: phrase };
  const last = view.segments.filter((segment) => !VERSION.test(segment)).pop();
  if (last === "tree") return { count: view.params.length, reason: "tree" };
  // `read_graph` with no input reads all of the graph.
  if (group === READ && view.params.length === 0 && last !== undefined && COLLECTIONS.has(last)) return { count: 0, reason: "collection", text: last };
  return null;
}

/** S7 rule. */
export const s7UnboundedList: Rule = {
  id: "S7",
  check(context, report) {
    for (const view of context.tools) {
      const found = wholeCollection(view);
      if (found === null) continue;
      const bounded = [...parameterSchemas(view.inputSchema)].some(([name, schema]) => bounds(name, schema));
      if (!bounded) report.tool(view, "warning", "/inputSchema", { ...found });
    }
  },
};
