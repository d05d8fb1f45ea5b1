/** Decides whether a patternProperties pattern matches a property name, refusing patterns that may backtrack badly. */

// Both pattern and name come from the server under test, so a pattern like `^(a+)+$` against a crafted name
// could hang the linter. We only run patterns without quantified groups or backreferences, with few
// quantifiers, on short names; anything else is "unknown" and the callers then assume the unsafe answer.
const MAX_PATTERN = 256;
const MAX_NAME = 64;
const MAX_QUANTIFIERS = 3;
const MAX_CACHE = 1024;

// Validators differ on the `u` flag (ajv sets it, others do not), so a pattern is run both ways and only
// an answer both agree on counts.
type Compiled = readonly [RegExp, RegExp] | null;

const cache = new Map<string, Compiled>();

/** Whether `pattern` (ECMA-262, as JSON Schema validators run it) matches `name`; undefined when not safe to tell. */
export function patternMatches(pattern: string, name: string): boolean | undefined {
  if (name.length > MAX_NAME) return undefined;
  let compiled = cache.get(pattern);
  if (compiled === undefined) {
    compiled = compileSafe(pattern);
    if (cache.size >= MAX_CACHE) cache.clear();
    cache.set(pattern, compiled);
  }
  if (compiled === null) return undefined;
  const [unicode, plain] = compiled;
  const hit = unicode.test(name);
  return hit === plain.test(name) ? hit : undefined;
}

function compileSafe(pattern: string): Compiled {
  if (pattern.length > MAX_PATTERN) return null;
  if (/\\[1-9]|\\k</.test(pattern)) return null; // backreferences
  if (/\)[*+{]/.test(pattern)) return null; // quantified groups: the classic catastrophic shape
  if (/\(\?<?[=!]/.test(pattern)) return null; // lookarounds can hide quantifiers
  const quantifiers = pattern.match(/[*+{]/g)?.length ?? 0;
  if (quantifiers > MAX_QUANTIFIERS) return null;
  try {
    return [new RegExp(pattern, "u"), new RegExp(pattern)];
  } catch {
    return null;
  }
}
