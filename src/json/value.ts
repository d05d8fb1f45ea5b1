/** Reading parsed JSON safely, shared by the lock, the schema analyzer and the reports: own keys only, JSON Pointers. Pure. */

/** A parsed JSON object. Read it through `ownField` so `__proto__` and friends stay plain keys. */
export type JsonObject = { [key: string]: unknown };

/** True for a plain JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value of an own key, or undefined; never reads the prototype chain. */
export function ownField(object: { readonly [key: string]: unknown }, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** Escapes one JSON Pointer reference token (RFC 6901). */
export function escapePointer(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** Unescapes one JSON Pointer reference token (RFC 6901). */
export function unescapePointer(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** The pointer of a child: `path` plus one escaped token. */
export function childPath(path: string, token: string | number): string {
  return `${path}/${typeof token === "number" ? String(token) : escapePointer(token)}`;
}

/** The value at a JSON Pointer, or undefined when the path does not exist (own keys only). */
export function valueAtPointer(root: unknown, pointer: string): unknown {
  if (pointer === "") return root;
  let current: unknown = root;
  for (const raw of pointer.slice(1).split("/")) {
    const segment = unescapePointer(raw);
    if (Array.isArray(current)) {
      const index = Number(segment);
      current = Number.isInteger(index) ? current[index] : undefined;
    } else if (isJsonObject(current)) {
      current = ownField(current, segment);
    } else {
      return undefined;
    }
  }
  return current;
}
