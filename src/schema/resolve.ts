/** Local `$ref` resolution: an index of one schema document's resources, anchors and base URIs, and the lookup. */

import { escapePointer, isObject, type JsonObject, own, unescapePointer } from "./json.js";
import { keywordInfo } from "./keywords.js";
import { subschemaEntries } from "./shape.js";

// A document without a root $id still needs a base URI so relative references resolve somewhere; this one
// can never be fetched and never collides with a real identifier.
const DOCUMENT_BASE = "https://document.mcp-lint.invalid/schema.json";

/** Where a schema object sits in its document: the base URI its references resolve against, and its pointer. */
export interface Location {
  readonly base: string;
  readonly pointer: string;
}

/** What a reference points at: the value, the base URI inside it, and its pointer (the cycle-check key). */
export interface RefTarget {
  readonly value: unknown;
  readonly base: string;
  readonly pointer: string;
}

/** One document's reference index, built once per comparison. */
export interface DocIndex {
  readonly root: unknown;
  /** Base URI of the root resource. */
  readonly base: string;
  /** Resource URI (no fragment) -> its root; null when two resources claim the URI. */
  readonly resources: ReadonlyMap<string, Location | null>;
  /** `resource#name` -> the anchored schema; null when the anchor is declared twice. */
  readonly anchors: ReadonlyMap<string, Location | null>;
  /** Each schema object reached by the keyword walk, by identity. */
  readonly locations: WeakMap<object, Location>;
  /** True when some schema below the root declares its own resource with `$id`. */
  readonly embedded: boolean;
  /** True when the document uses `$dynamicRef` or `$recursiveRef`, whose targets depend on the dynamic scope. */
  readonly dynamic: boolean;
}

interface Visit {
  readonly schema: unknown;
  readonly pointer: string;
  readonly base: string;
}

/** Resolves `ref` against `base`, or undefined when it is not a URI reference we can parse. */
function resolveUri(ref: string, base: string): URL | undefined {
  try {
    return new URL(ref, base);
  } catch {
    return undefined;
  }
}

function withoutFragment(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = "";
  return copy.href;
}

/** Decodes a URI fragment (percent-encoding first, as RFC 6901 section 6 asks); undefined when malformed. */
function decodeFragment(hash: string): string | undefined {
  try {
    return decodeURIComponent(hash.startsWith("#") ? hash.slice(1) : hash);
  } catch {
    return undefined;
  }
}

function register(map: Map<string, Location | null>, key: string, location: Location): void {
  const seen = map.get(key);
  if (seen === undefined) map.set(key, location);
  else if (seen !== null && seen.pointer !== location.pointer) map.set(key, null);
}

/** Walks a document from its root along schema keywords and records resources, anchors and base URIs. */
export function indexDocument(root: unknown): DocIndex {
  const resources = new Map<string, Location | null>();
  const anchors = new Map<string, Location | null>();
  const locations = new WeakMap<object, Location>();
  let embedded = false;
  let dynamic = false;
  let rootBase = DOCUMENT_BASE;

  const stack: Visit[] = [{ schema: root, pointer: "", base: DOCUMENT_BASE }];
  // Input is bounded in size by the caller; the explicit stack keeps hostile nesting off the call stack.
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const { schema, pointer } = visit;
    if (!isObject(schema)) continue;
    let base = visit.base;
    const id = own(schema, "$id");
    if (typeof id === "string") {
      const url = resolveUri(id, base);
      if (url !== undefined) {
        const fragment = decodeFragment(url.hash);
        if (!id.startsWith("#")) {
          base = withoutFragment(url);
          register(resources, base, { base, pointer });
          if (pointer === "") rootBase = base;
          else embedded = true;
        }
        // draft-06/07 spell anchors as `$id: "#name"`.
        if (fragment !== undefined && fragment !== "" && !fragment.startsWith("/")) {
          register(anchors, `${base}#${fragment}`, { base, pointer });
        }
      }
    }
    if (pointer === "") register(resources, base, { base, pointer });
    if (!locations.has(schema)) locations.set(schema, { base, pointer });
    for (const key of ["$anchor", "$dynamicAnchor"]) {
      const name = own(schema, key);
      if (typeof name === "string") register(anchors, `${base}#${name}`, { base, pointer });
    }
    if (Object.hasOwn(schema, "$dynamicRef") || Object.hasOwn(schema, "$recursiveRef")) dynamic = true;
    for (const key of Object.keys(schema)) {
      const info = keywordInfo(key);
      for (const [suffix, sub] of subschemaEntries(info, schema[key])) {
        stack.push({ schema: sub, pointer: `${pointer}/${escapePointer(key)}${suffix}`, base });
      }
    }
  }
  return { root, base: rootBase, resources, anchors, locations, embedded, dynamic };
}

/** The value at a document pointer, or undefined when a token does not exist. */
export function valueAt(root: unknown, pointer: string): unknown {
  if (pointer === "") return root;
  let node: unknown = root;
  for (const token of pointer.split("/").slice(1).map(unescapePointer)) {
    if (Array.isArray(node)) node = /^(0|[1-9][0-9]*)$/.test(token) ? node[Number(token)] : undefined;
    else if (isObject(node)) node = own(node, token);
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/** The absolute form of a reference, for telling two unresolvable references apart. */
export function absoluteRef(ref: string, base: string): string {
  return resolveUri(ref, base)?.href ?? ref;
}

/**
 * Resolves a reference found in a schema whose base URI is `base`: a JSON Pointer or anchor fragment inside a
 * resource of this document. Undefined for anything else (remote documents are never fetched).
 */
export function resolveRef(index: DocIndex, base: string, ref: string): RefTarget | undefined {
  const url = resolveUri(ref, base);
  if (url === undefined) return undefined;
  const resource = index.resources.get(withoutFragment(url));
  if (resource === undefined || resource === null) return undefined;
  const fragment = decodeFragment(url.hash);
  if (fragment === undefined) return undefined;
  if (fragment === "") return located(index, resource);
  if (!fragment.startsWith("/")) {
    const anchor = index.anchors.get(`${resource.base}#${fragment}`);
    return anchor === undefined || anchor === null ? undefined : located(index, anchor);
  }
  const tokens = fragment.split("/").slice(1).map(unescapePointer);
  const pointer = resource.pointer + tokens.map((t) => `/${escapePointer(t)}`).join("");
  const value = valueAt(index.root, pointer);
  if (value === undefined) return undefined;
  // A target inside an embedded resource resolves its own references against that resource.
  const inner = isObject(value) ? index.locations.get(value)?.base : undefined;
  return { value, base: inner ?? resource.base, pointer };
}

function located(index: DocIndex, location: Location): RefTarget | undefined {
  const value = valueAt(index.root, location.pointer);
  return value === undefined ? undefined : { value, base: location.base, pointer: location.pointer };
}

/** The location recorded for a schema object, if the keyword walk reached it. */
export function locationOf(index: DocIndex, schema: unknown): Location | undefined {
  return isObject(schema) ? index.locations.get(schema as JsonObject) : undefined;
}

/** The `$ref` strings inside a schema (following schema keywords only), or undefined when it holds an `$id`,
 * `$dynamicRef` or `$recursiveRef`, which would make a copy of it resolve differently. */
export function referencesIn(schema: unknown): string[] | undefined {
  const refs: string[] = [];
  const stack: unknown[] = [schema];
  for (let node = stack.pop(); node !== undefined || stack.length > 0; node = stack.pop()) {
    if (!isObject(node)) continue;
    if (Object.hasOwn(node, "$id") || Object.hasOwn(node, "$dynamicRef") || Object.hasOwn(node, "$recursiveRef")) {
      return undefined;
    }
    const ref = own(node, "$ref");
    if (typeof ref === "string") refs.push(ref);
    for (const key of Object.keys(node)) {
      for (const [, sub] of subschemaEntries(keywordInfo(key), node[key])) stack.push(sub);
    }
  }
  return refs;
}

/**
 * Pointers of the schemas that validation can reach from the root (everything along schema keywords except
 * definitions, plus whatever a reference reaches, and onwards), with every pointer that contains one of
 * them. Undefined when the document uses
 * `$dynamicRef`/`$recursiveRef`, whose targets depend on the dynamic scope: then anything may be reached.
 */
export function reachablePointers(index: DocIndex): ReadonlySet<string> | undefined {
  if (index.dynamic) return undefined;
  const reached = new Set<string>();
  const stack: Visit[] = [{ schema: index.root, pointer: "", base: index.base }];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const { schema, pointer } = visit;
    if (reached.has(pointer)) continue;
    reached.add(pointer);
    if (!isObject(schema)) continue;
    const base = index.locations.get(schema)?.base ?? visit.base;
    const ref = own(schema, "$ref");
    if (typeof ref === "string") {
      const target = resolveRef(index, base, ref);
      if (target !== undefined) stack.push({ schema: target.value, pointer: target.pointer, base: target.base });
    }
    for (const key of Object.keys(schema)) {
      const info = keywordInfo(key);
      if (info.role === "namedSchemas") continue;
      for (const [suffix, sub] of subschemaEntries(info, schema[key])) {
        stack.push({ schema: sub, pointer: `${pointer}/${escapePointer(key)}${suffix}`, base });
      }
    }
  }
  // Every pointer that holds a reached one counts too, so a lookup is one set test.
  const holding = new Set<string>();
  for (const pointer of reached) {
    for (let cut = pointer.length; cut > 0 && !holding.has(pointer.slice(0, cut)); cut = pointer.lastIndexOf("/", cut - 1)) {
      holding.add(pointer.slice(0, cut));
    }
  }
  holding.add("");
  return holding;
}

/** True when some reachable pointer lies at or inside `pointer` (see reachablePointers). */
export function isReachable(reached: ReadonlySet<string> | undefined, pointer: string): boolean {
  return reached === undefined || reached.has(pointer);
}
