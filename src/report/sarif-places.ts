/**
 * Where SARIF results point inside the files mcp-lint read: the line of each entry of a lockfile
 * and of each tool object of a saved tools/list. Found with jsonc-parser's visitor on the text as
 * read, so a hand-formatted file gets its own lines too. Pure.
 */

import { jsonc } from "../json/parse.js";

/** jsonc-parser's visitor over `text`, with `open` the number of containers open around each event. */
function visitNested(
  text: string,
  events: {
    onObjectBegin?: (open: number, startLine: number, path: () => Array<string | number>) => void;
    onObjectProperty?: (open: number, property: string, startLine: number, path: () => Array<string | number>) => void;
  },
): void {
  let open = 0;
  jsonc().visit(text, {
    onObjectBegin: (_offset, _length, startLine, _startCharacter, pathSupplier) => {
      open++;
      events.onObjectBegin?.(open, startLine, pathSupplier);
    },
    onObjectEnd: () => {
      open--;
    },
    onArrayBegin: () => {
      open++;
    },
    onArrayEnd: () => {
      open--;
    },
    onObjectProperty: (property, _offset, _length, startLine, _startCharacter, pathSupplier) => {
      events.onObjectProperty?.(open, property, startLine, pathSupplier);
    },
  });
}

/** 1-based line of each property whose path has at most `depth` keys, keyed by the path as JSON text. */
function propertyLines(text: string, depth: number): Map<string, number> {
  const lines = new Map<string, number>();
  visitNested(text, {
    onObjectProperty: (open, property, startLine, path) => {
      if (open > depth) return;
      const key = JSON.stringify([...path(), property]);
      // The first copy of a repeated key is where a reader looks (the strict reader refused the file anyway).
      if (!lines.has(key)) lines.set(key, startLine + 1);
    },
  });
  return lines;
}

/** The lockfile section a change kind's entry lives in. */
function sectionOf(kind: string): string {
  if (kind.startsWith("prompt_")) return "prompts";
  if (kind.startsWith("resource_template_")) return "resource_templates";
  if (kind.startsWith("resource_")) return "resources";
  return "tools";
}

/** Lines of a lockfile's entries, for results of `lock --check`. */
export interface LockLines {
  /**
   * The line a result about `name` (a tool, prompt, resource or template; null for the server) of
   * `server` (null in a v1 lock) points at: its entry, else its section, else the server's entry;
   * a server-level result points at the instructions or the server entry.
   */
  lineOf(server: string | null, name: string | null, kind: string): number | null;
}

/** Changes about what runs point at the lock's `artifact` section. */
const ARTIFACT_KINDS: ReadonlySet<string> = new Set(["artifact_changed", "dependencies_changed", "provenance_changed"]);

export function lockLines(text: string): LockLines {
  const lines = propertyLines(text, 4);
  const at = (...path: string[]) => lines.get(JSON.stringify(path)) ?? null;
  return {
    lineOf(server, name, kind) {
      const scope = server === null ? [] : ["servers", server];
      const serverLine = server === null ? at("server") : at(...scope);
      if (name === null) {
        const own = kind.startsWith("instructions") ? "instructions" : ARTIFACT_KINDS.has(kind) ? "artifact" : null;
        return (own === null ? null : at(...scope, own)) ?? serverLine ?? 1;
      }
      const section = sectionOf(kind);
      return at(...scope, section, name) ?? at(...scope, section) ?? serverLine ?? 1;
    },
  };
}

/**
 * The 1-based line of each tool object of a saved tools/list, in order, for the shapes `check`
 * reads: `{ "tools": [...] }`, a JSON-RPC response `{ "result": { "tools": [...] } }`, a bare array.
 */
export function toolObjectLines(text: string): number[] {
  const lines: number[] = [];
  const isToolPath = (path: ReadonlyArray<string | number>): boolean => {
    const [first, second, third] = path;
    if (path.length === 1) return typeof first === "number";
    if (path.length === 2) return first === "tools" && typeof second === "number";
    return path.length === 3 && first === "result" && second === "tools" && typeof third === "number";
  };
  visitNested(text, {
    onObjectBegin: (open, startLine, path) => {
      if (open <= 4 && isToolPath(path())) lines.push(startLine + 1);
    },
  });
  return lines;
}
