/**
 * `x-mcp-header` (MCP 2026-07-28): a parameter whose value a client copies into the HTTP header
 * `Mcp-Param-{name}`, which every proxy on the way sees. Where a schema declares one, and whether
 * the parameter looks like it holds a secret. Pure; shared by the linter and the lock.
 */

import { isObject, type JsonObject, own } from "./json.js";
import { walkSchema } from "./schema-walk.js";

/** The schema keyword. */
export const MCP_HEADER_KEY = "x-mcp-header";

/** One schema node that carries `x-mcp-header`. */
export interface McpHeaderSite {
  /** JSON Pointer of the node below the input schema's root (`/properties/region`). */
  path: string;
  /** The parameter's name (the last `properties` key), or null when the node is not a property. */
  name: string | null;
  /** The keyword's value as sent (clients require a non-empty HTTP token). */
  value: unknown;
  node: JsonObject;
  /** Reached from the root through `properties` alone: the only place clients read it. */
  reachable: boolean;
}

const PROPERTY_CHAIN = /^(?:\/properties\/(?:[^/~]|~[01])+)+$/;

/** Every node of an input schema that declares `x-mcp-header`, in document order. */
export function mcpHeaderSites(inputSchema: unknown): McpHeaderSite[] {
  const sites: McpHeaderSite[] = [];
  walkSchema(inputSchema, "", 0, ({ node, path, slot }) => {
    if (typeof node !== "object" || !Object.hasOwn(node, MCP_HEADER_KEY)) return;
    const name = slot.kind === "property" ? slot.name : null;
    sites.push({ path, name, value: own(node, MCP_HEADER_KEY), node, reachable: PROPERTY_CHAIN.test(path) });
  });
  return sites;
}

/** RFC 9110 `token` (1*tchar): what a header field name may be made of. */
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** True when a header name is one clients accept: a non-empty RFC 9110 token. */
export function isHttpToken(value: unknown): value is string {
  return typeof value === "string" && HTTP_TOKEN.test(value);
}

// Words of a parameter name that mean it holds a secret; `key` alone counts (`api_key`, `key`).
const SECRET_NAME_WORDS = new Set([
  "token",
  "tokens",
  "secret",
  "secrets",
  "password",
  "passwd",
  "passphrase",
  "auth",
  "authorization",
  "credential",
  "credentials",
  "apikey",
  "key",
  "bearer",
  "cookie",
  "jwt",
  "otp",
]);
// Phrases in a description; narrower than names, since prose mentions "key" and "token" in passing.
const SECRET_PHRASES =
  /\b(?:secret|password|passphrase|credentials?|api[ _-]?key|access[ _-]?key|private[ _-]?key|access[ _-]?token|auth(?:entication|orization)?[ _-]?token|bearer|session[ _-]?cookie)\b/i;

/** The words of an identifier: `apiKey`, `api_key` and `API-KEY` all give `api`, `key`. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
}

/**
 * Why a parameter looks like it holds a secret (`name`, `description`, `schema`), or null: its name,
 * its description, or its schema (`format: "password"`, `writeOnly: true`) says so.
 */
export function secretHint(name: string | null, node: unknown): "name" | "description" | "schema" | null {
  if (name !== null && nameWords(name).some((word) => SECRET_NAME_WORDS.has(word))) return "name";
  if (!isObject(node)) return null;
  const description = own(node, "description");
  if (typeof description === "string" && SECRET_PHRASES.test(description)) return "description";
  if (own(node, "format") === "password" || own(node, "writeOnly") === true) return "schema";
  return null;
}

/** The schema types clients accept under `x-mcp-header`: string, integer and boolean. */
const HEADER_TYPES = new Set(["string", "integer", "boolean"]);

/** True when a node's `type` is one clients accept for a header value (one primitive, or one plus null). */
export function isHeaderType(node: JsonObject): boolean {
  const type = own(node, "type");
  if (typeof type === "string") return HEADER_TYPES.has(type);
  if (!Array.isArray(type)) return false;
  const kinds = type.filter((item) => item !== "null");
  return kinds.length === 1 && HEADER_TYPES.has(kinds[0] as string);
}
