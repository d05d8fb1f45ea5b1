/** What a parameter schema says about itself: a type, a description, a vague name. Shared by S2, S3 and S7. */

import { isObject, type JsonObject, nonEmptyString, own } from "./json.js";
import { isVerb, nameSegments } from "./text.js";

/** Most `$ref` hops followed when reading a parameter's type or description. */
const MAX_REF_HOPS = 8;

/** The schema a local `$ref` (`#`, `#/$defs/x`, any JSON Pointer) points at, or undefined. */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) node = /^(0|[1-9][0-9]*)$/.test(token) ? (node as unknown[])[Number(token)] : undefined;
    else if (isObject(node)) node = own(node, token);
    else return undefined;
  }
  return node;
}

/** The schema and the schemas it stands for: itself, its `$ref` chain, and its direct combinator members. */
function aspects(schema: JsonObject, root: unknown): JsonObject[] {
  const out = refChain(schema, root);
  for (const first of [...out]) {
    for (const keyword of ["anyOf", "oneOf", "allOf"]) {
      const members = own(first, keyword);
      if (Array.isArray(members)) for (const member of members as unknown[]) if (isObject(member)) out.push(member);
    }
  }
  return out;
}

const TYPE_KEYWORDS = ["type", "enum", "const", "$ref", "$dynamicRef", "$recursiveRef", "anyOf", "oneOf", "allOf", "properties", "items", "prefixItems"];

/** True when a parameter schema says what kind of value it takes (a type, enum, const, reference, combinator or shape). */
export function hasType(schema: JsonObject): boolean {
  return TYPE_KEYWORDS.some((keyword) => own(schema, keyword) !== undefined);
}

/** True when a parameter schema, its reference target or one of its direct branches carries a non-empty description. */
export function hasDescription(schema: JsonObject, root: unknown): boolean {
  if (nonEmptyString(own(schema, "description")) !== null) return true;
  return aspects(schema, root).some((node) => nonEmptyString(own(node, "description")) !== null);
}

/**
 * True when a parameter schema allows exactly one value (`const`, or an `enum` of one): a
 * discriminator such as `"type": {"enum": ["text"]}` leaves the model no choice to explain.
 */
export function pinsOneValue(schema: JsonObject): boolean {
  if (Object.hasOwn(schema, "const")) return true;
  const values = own(schema, "enum");
  return Array.isArray(values) && values.length === 1;
}

// Names that say nothing about the value on their own; with a description they are fine.
const VAGUE = new Set("id ids user data q value val input obj item info param params arg args payload x s str".split(" "));

/** True for a parameter name that says too little without a description (`id`, `data`, `q`, a single letter). */
export function isVagueName(name: string): boolean {
  return name.length === 1 || VAGUE.has(name.toLowerCase());
}

/**
 * True for the value of a key/value pair: a parameter named `value` (or `val`) of one scalar type
 * beside one named `key` or `name` (`env_key`, `tag_name`), which says whose value it is.
 */
export function pairedValue(name: string, siblings: readonly string[], schema: JsonObject, root: unknown): boolean {
  const lower = name.toLowerCase();
  if (lower !== "value" && lower !== "val") return false;
  if (!typed(refChain(schema, root), ["string", "number", "integer", "boolean"])) return false;
  return siblings.some((sibling) => {
    const last = nameSegments(sibling).at(-1);
    return sibling !== name && (last === "key" || last === "name");
  });
}

/** The schema and the schemas its `$ref` chain points at (not its branches): what one value is declared as. */
function refChain(schema: JsonObject, root: unknown): JsonObject[] {
  const out: JsonObject[] = [];
  let node: unknown = schema;
  for (let hop = 0; hop < MAX_REF_HOPS && isObject(node); hop++) {
    out.push(node);
    const ref = own(node, "$ref");
    node = typeof ref === "string" ? resolveLocalRef(root, ref) : undefined;
  }
  return out;
}

/** The first value a keyword has along a `$ref` chain. */
function first(chain: readonly JsonObject[], keyword: string): unknown {
  for (const node of chain) {
    const value = own(node, keyword);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** True when a schema's `type` is this one (alone, or beside `null`). */
function typed(chain: readonly JsonObject[], wanted: readonly string[]): boolean {
  const type = first(chain, "type");
  if (typeof type === "string") return wanted.includes(type);
  if (!Array.isArray(type)) return false;
  const kinds = (type as unknown[]).filter((kind) => kind !== "null");
  return kinds.length === 1 && wanted.includes(kinds[0] as string);
}

// An enum value that reads as a word or a few (`line-through`, `closeRichMenu`, `3xl`, `HUBSPOT_DEFINED`);
// at most 40 characters with a letter and no run of four digits, so codes and IDs do not pass.
const WORD_VALUE = /^(?=.*[A-Za-z])(?!.*[0-9]{4})[A-Za-z0-9]+(?:[-_ .][A-Za-z0-9]+){0,4}$/;
const MAX_ENUM_WORDS = 50;

/** True for an enum of two or more values that are all self-describing words. */
function enumOfWords(values: unknown): boolean {
  if (!Array.isArray(values) || values.length < 2 || values.length > MAX_ENUM_WORDS) return false;
  return (values as unknown[]).every((value) => typeof value === "string" && value.length <= 40 && WORD_VALUE.test(value));
}

// Words that make a boolean's name a verb or an adjective (`wrap`, `tls_insecure`, `deploy_on_push`);
// with the action verbs of text.ts and the endings below they cover the flags real servers send.
const FLAG_WORDS = new Set(
  (
    "is has have can should must will was were allow allowed enable disable include exclude use using show hide skip force keep " +
    "return fetch follow ignore no not only with without auto dry strict verbose overwrite wrap save store redact reveal prune dump " +
    "extract require deduplicate crawl deploy confirm preview lock override redirect remove replace append notify validate check " +
    "debug raw async sync silent quiet recursive active inactive visible hidden public private draft bold italic underline strike " +
    "mobile temporary published unique required default full partial insecure secure open closed enabled disabled archived pinned " +
    "current latest first last all any each every exact literal multiline wildcard"
  ).split(" "),
);
const ADJECTIVE_ENDINGS = /(?:ed|able|ible|ive|ing|ful|less|ous)$/;

/** True for a flag name made of (or holding) a verb or an adjective, so `true` and `false` say what they do. */
function flagName(name: string): boolean {
  if (isVagueName(name)) return false;
  return nameSegments(name).some((segment) => FLAG_WORDS.has(segment) || isVerb(segment) || (segment.length >= 5 && ADJECTIVE_ENDINGS.test(segment)));
}

// Names of a quantity with a unit or a known scale (`longitude`, `timeout_ms`, `max_pages`, `zoom`,
// `padding_top`, `border_color`): with bounds or a pattern, the value's form is all there is to say.
const UNIT_WORDS = new Set(
  (
    "latitude longitude lat lng lon degrees deg angle bearing heading percent percentage pct ratio opacity zoom seconds secs sec " +
    "ms millis milliseconds minutes mins minute hours hour days day weeks week months month years year px pixels width height " +
    "radius meters metres km miles bytes kb mb gb temperature page pages limit count offset port timeout quality priority rating " +
    "score size length depth level retries attempts max min top color colour padding margin spacing border corner"
  ).split(" "),
);

function unitName(name: string): boolean {
  return nameSegments(name).some((segment) => UNIT_WORDS.has(segment));
}
/** Bounds past this are a type's range (zod's ±2^53-1), not a limit the author chose. */
const MEANINGFUL_BOUND = 1e9;

function bound(chain: readonly JsonObject[], keywords: readonly string[]): boolean {
  return keywords.some((keyword) => {
    const value = first(chain, keyword);
    return typeof value === "number" && Number.isFinite(value) && Math.abs(value) < MEANINGFUL_BOUND;
  });
}

// Formats that say what a string is (an address, a moment, an identifier).
const TELLING_FORMATS = new Set([
  "date-time",
  "date",
  "time",
  "duration",
  "email",
  "idn-email",
  "uri",
  "url",
  "iri",
  "uri-reference",
  "uuid",
  "hostname",
  "ipv4",
  "ipv6",
]);

// The last word of a string's name when the value is prose the model writes itself (`commit_message`,
// `pr_title`, `release_notes`): there is no format to learn and no set of values to pick from.
const PROSE_WORDS = new Set("title subject description comment comments message note notes summary caption body text content".split(" "));
// The last word of a string's name when the name states the value's form, as a `format` would (`repo_clone_url`, `email`).
const FORM_WORDS = new Set("url uri href email".split(" "));

/** How deep a container's properties are read to tell whether its content explains it; past this it does not. */
const MAX_CONTAINER_DEPTH = 4;
/** Most properties a container may have and still be read through; a bigger one is not judged self-explanatory. */
const MAX_CONTAINER_PROPERTIES = 64;

/**
 * True for an object whose every property is described or explains itself (or an array of such
 * objects): the model fills it in through those properties, so a description of the object itself
 * would add nothing to the call. An object without declared properties (a free-form map) is not.
 */
function explainedContainer(chain: readonly JsonObject[], root: unknown, depth: number): boolean {
  if (depth >= MAX_CONTAINER_DEPTH) return false;
  if (typed(chain, ["array"])) {
    const items = first(chain, "items");
    return isObject(items) && explainedContainer(refChain(items, root), root, depth + 1);
  }
  const properties = first(chain, "properties");
  if (!isObject(properties)) return false;
  const names = Object.keys(properties);
  if (names.length === 0 || names.length > MAX_CONTAINER_PROPERTIES) return false;
  return names.every((name) => {
    const property = properties[name];
    if (!isObject(property)) return false;
    return hasDescription(property, root) || pinsOneValue(property) || selfExplanatoryAt(name, property, root, depth + 1);
  });
}

/**
 * True when a parameter's name, type and constraints already say what to pass, so a missing
 * description costs a model little: an enum of self-describing words (`none`, `underline`,
 * `line-through`), a boolean named by a verb or adjective (`wrap`, `include_archived`), a number
 * bounded on both sides and named like a unit (`longitude` -180..180), a string whose `format`
 * names the kind of value (`created_at` as `date-time`) or whose name does (`repo_clone_url`,
 * `email`), a string of prose the model writes (`title`, `commit_message`), a string named like a
 * unit or measure with a pattern for its form (`padding_top` as `^\d+px$`, `color` as
 * `^#[0-9A-Fa-f]{6}$`), or an object whose every property is described or explains itself. A `$ref`
 * is followed; branches are not.
 */
export function selfExplanatory(name: string, schema: JsonObject, root: unknown): boolean {
  return selfExplanatoryAt(name, schema, root, 0);
}

function selfExplanatoryAt(name: string, schema: JsonObject, root: unknown, depth: number): boolean {
  const chain = refChain(schema, root);
  if (enumOfWords(first(chain, "enum"))) return true;
  if (typed(chain, ["boolean"])) return flagName(name);
  if (typed(chain, ["number", "integer"])) {
    const bounded = bound(chain, ["minimum", "exclusiveMinimum"]) && bound(chain, ["maximum", "exclusiveMaximum"]);
    return bounded && unitName(name);
  }
  if (typed(chain, ["object", "array"]) || (first(chain, "type") === undefined && first(chain, "properties") !== undefined))
    return explainedContainer(chain, root, depth);
  if (!typed(chain, ["string"])) return false;
  const format = first(chain, "format");
  if (typeof format === "string" && TELLING_FORMATS.has(format)) return !isVagueName(name);
  if (typeof first(chain, "pattern") === "string") return unitName(name);
  if (isVagueName(name) || first(chain, "enum") !== undefined || format !== undefined) return false;
  const last = nameSegments(name).at(-1) ?? "";
  return PROSE_WORDS.has(last) || FORM_WORDS.has(last);
}
