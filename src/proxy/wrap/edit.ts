/**
 * Wrap and unwrap one server entry of a config file as text edits that change only its `command`
 * and the start of its `args`, so comments, formatting and every other byte stay. Pure.
 */

import { findNodeAtLocation, type Node as JsonNode, parseTree } from "jsonc-parser";
import { isMap, isScalar, isSeq, type Node as YamlNode, type Pair, parseDocument, type Scalar, type YAMLMap, type YAMLSeq } from "yaml";
import type { DocPath } from "../../config/readers/syntax.js";
import { type Span, TomlScanError, tomlValueSpans } from "./toml-spans.js";

/** The syntax of a config file. */
export type Syntax = "json" | "toml" | "yaml";

/** One text edit: replace [start, end) with `text`. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** Where an entry's launch is written, in one syntax. */
interface Place {
  /** The command value as written (a string literal or scalar), and its raw text. */
  command: Span;
  /** The args list, when the entry has one. */
  args: ArgsPlace | null;
  /** Text that adds an `args` list holding these (already quoted) elements, and where it goes. */
  addArgs(elements: readonly string[]): TextEdit;
  /** A string as a literal of this syntax. */
  literal(value: string): string;
  /** Whether a raw command can be copied into the args as written. */
  copyable(raw: string): boolean;
}

interface ArgsPlace {
  items: Span[];
  /** Flow list (`[a, b]`): where `[` is. Block list (YAML `- a`): where each item's dash is. */
  open: number | null;
  dashes: number[] | null;
}

/** Why an entry cannot be edited as text (the caller reports it and leaves the entry alone). */
export class EntryEditError extends Error {
  override name = "EntryEditError";
}

/** The edits that wrap an entry: `command` becomes the launcher, the wrapper's args and the original command go first in `args`. */
export function wrapEdits(text: string, syntax: Syntax, at: DocPath, command: string, prefix: readonly string[]): TextEdit[] {
  const place = locate(text, syntax, at);
  const commandRaw = text.slice(place.command.start, place.command.end);
  if (!place.copyable(commandRaw)) throw new EntryEditError("its command is written in a form that cannot be copied into a list as is");
  const elements = [...prefix.map((value) => place.literal(value)), commandRaw];
  const edits: TextEdit[] = [{ start: place.command.start, end: place.command.end, text: place.literal(command) }];
  const args = place.args;
  if (args === null) {
    edits.push(place.addArgs(elements));
  } else if (args.dashes !== null) {
    const first = args.dashes[0] as number;
    const indent = text.slice(text.lastIndexOf("\n", first - 1) + 1, first);
    const newline = lineBreak(text, first);
    edits.push({ start: first, end: first, text: elements.map((element) => `- ${element}${newline}${indent}`).join("") });
  } else if (args.items.length === 0) {
    edits.push({ start: (args.open as number) + 1, end: (args.open as number) + 1, text: elements.join(", ") });
  } else {
    const first = (args.items[0] as Span).start;
    const between = text.slice((args.open as number) + 1, first);
    // Items on lines of their own get lines of their own, indented like the first.
    const separator = between.includes("\n") ? `${lineBreak(text, first)}${between.slice(between.lastIndexOf("\n") + 1)}` : " ";
    edits.push({ start: first, end: first, text: elements.map((element) => `${element},${separator}`).join("") });
  }
  return edits;
}

/**
 * The edits that undo `wrapEdits`: the original command back in place, and the wrapper's args
 * and the copied command out of `args` (or the whole `args` added for an entry that had none).
 * `prefixLength` counts the wrapper's args through `--`.
 */
export function unwrapEdits(text: string, syntax: Syntax, at: DocPath, prefixLength: number, argsAbsent: boolean): TextEdit[] {
  const place = locate(text, syntax, at);
  const args = place.args;
  if (args === null || args.items.length <= prefixLength) throw new EntryEditError("its args do not hold a wrapped command");
  const copied = args.items[prefixLength] as Span;
  const commandRaw = text.slice(copied.start, copied.end);
  const edits: TextEdit[] = [{ start: place.command.start, end: place.command.end, text: commandRaw }];
  if (argsAbsent) {
    // The args were added whole: remove exactly what wrap added, or refuse (the list was edited since).
    const elements = args.items.map((item) => text.slice(item.start, item.end));
    const added = place.addArgs(elements);
    if (text.slice(added.start, added.start + added.text.length) !== added.text) {
      throw new EntryEditError("its args were edited after it was wrapped; restore it by hand (the backup holds the original)");
    }
    edits.push({ start: added.start, end: added.start + added.text.length, text: "" });
  } else if (args.dashes !== null) {
    const next = args.dashes[prefixLength + 1];
    if (next === undefined) throw new EntryEditError("its args list holds only the wrapped command");
    edits.push({ start: args.dashes[0] as number, end: next, text: "" });
  } else {
    const first = (args.items[0] as Span).start;
    const next = args.items[prefixLength + 1];
    edits.push({ start: first, end: next === undefined ? copied.end : next.start, text: "" });
  }
  return edits;
}

/** The edit that replaces a whole JSON or JSONC entry with `replacement` (a remote entry is rewritten whole). */
export function replaceEntryEdit(text: string, at: DocPath, replacement: string): TextEdit {
  const body = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const root = parseTree(text.slice(body), [], { allowTrailingComma: true, disallowComments: false });
  const entry = root === undefined ? undefined : findNodeAtLocation(root, [...at]);
  if (entry === undefined || entry.type !== "object") throw new EntryEditError("the entry was not found where the reader saw it");
  return { start: entry.offset + body, end: entry.offset + body + entry.length, text: replacement };
}

/** The text of a JSON or JSONC entry as written. */
export function entryText(text: string, at: DocPath): string {
  const edit = replaceEntryEdit(text, at, "");
  return text.slice(edit.start, edit.end);
}

/** Apply edits that do not overlap (in any order). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let result = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}

function locate(text: string, syntax: Syntax, at: DocPath): Place {
  if (syntax === "json") return locateJson(text, at);
  if (syntax === "toml") return locateToml(text, at);
  return locateYaml(text, at);
}

/** The line break used at `offset` (CRLF files stay CRLF). */
function lineBreak(text: string, offset: number): string {
  const end = text.indexOf("\n", offset);
  return end > 0 && text[end - 1] === "\r" ? "\r\n" : "\n";
}

// ---- JSON and JSONC (jsonc-parser's tree gives every node's offset and length) ----------------

function locateJson(text: string, at: DocPath): Place {
  const body = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const root = parseTree(text.slice(body), [], { allowTrailingComma: true, disallowComments: false });
  const entry = root === undefined ? undefined : findNodeAtLocation(root, [...at]);
  if (entry === undefined || entry.type !== "object") throw new EntryEditError("the entry was not found where the reader saw it");
  if (hasDuplicateKeys(entry)) throw new EntryEditError("the entry has a key twice");
  let holder = entry;
  let command = findNodeAtLocation(entry, ["command"]) ?? findNodeAtLocation(entry, ["cmd"]);
  // Older Zed settings: "command": {"path": "uvx", "args": [...]}.
  if (command?.type === "object") {
    holder = command;
    command = findNodeAtLocation(command, ["path"]);
  }
  if (command === undefined || command.type !== "string") throw new EntryEditError("its command is not a string");
  const argsNode = findNodeAtLocation(holder, ["args"]);
  if (argsNode !== undefined && argsNode.type !== "array") throw new EntryEditError("its args are not a list");
  const shift = (offset: number) => offset + body;
  const span = (node: JsonNode): Span => ({ start: shift(node.offset), end: shift(node.offset + node.length) });
  const commandSpan = span(command);
  return {
    command: commandSpan,
    args: argsNode === undefined ? null : { items: (argsNode.children ?? []).map(span), open: shift(argsNode.offset), dashes: null },
    addArgs: (elements) => ({ start: commandSpan.end, end: commandSpan.end, text: `, "args": [${elements.join(", ")}]` }),
    literal: (value) => JSON.stringify(value),
    copyable: () => true,
  };
}

function hasDuplicateKeys(object: JsonNode): boolean {
  const keys = (object.children ?? []).map((property) => property.children?.[0]?.value as unknown);
  return new Set(keys).size !== keys.length;
}

// ---- TOML (positions from toml-spans.ts) ------------------------------------------------------

function locateToml(text: string, at: DocPath): Place {
  let spans: ReturnType<typeof tomlValueSpans>;
  try {
    spans = tomlValueSpans(text);
  } catch (error) {
    if (error instanceof TomlScanError) throw new EntryEditError(`the file could not be scanned for positions (${error.message})`);
    throw error;
  }
  const path = at.map(String);
  const command = spans.get(JSON.stringify([...path, "command"]));
  if (command === undefined || !/^["']/.test(text.slice(command.span.start, command.span.start + 1))) throw new EntryEditError("its command is not a string");
  const args = spans.get(JSON.stringify([...path, "args"]));
  if (args !== undefined && args.items === undefined) throw new EntryEditError("its args are not a list");
  return {
    command: command.span,
    args: args === undefined ? null : { items: args.items as Span[], open: args.open as number, dashes: null },
    addArgs: (elements) => {
      const list = `[${elements.join(", ")}]`;
      if (command.inline) return { start: command.span.end, end: command.span.end, text: `, args = ${list}` };
      // A line of its own after the command's line (after any comment on it), indented and keyed alike.
      let end = text.indexOf("\n", command.span.end);
      if (end < 0) end = text.length;
      const crlf = text[end - 1] === "\r";
      const lineEnd = crlf ? end - 1 : end;
      const indent = /^[ \t]*/.exec(text.slice(command.lineStart))?.[0] ?? "";
      const key = text.slice(command.key.start, command.key.end).replace(/(?:command|"command"|'command')$/, "args");
      return { start: lineEnd, end: lineEnd, text: `${crlf ? "\r\n" : "\n"}${indent}${key} = ${list}` };
    },
    literal: tomlLiteral,
    copyable: () => true,
  };
}

/** A TOML basic string: JSON's escapes are TOML's, and DEL, which TOML requires escaped, is escaped too. */
function tomlLiteral(value: string): string {
  return JSON.stringify(value).replace(/\x7f/g, "\\u007F");
}

// ---- YAML (the yaml library's nodes carry their source ranges) ---------------------------------

function locateYaml(text: string, at: DocPath): Place {
  const document = parseDocument(text, { uniqueKeys: false });
  if (document.errors.length > 0) throw new EntryEditError("the file did not parse as YAML");
  const entry = document.getIn([...at], true) as YamlNode | undefined;
  if (!isMap(entry)) throw new EntryEditError("the entry was not found where the reader saw it");
  const commandPair = pairOf(entry, "command") ?? pairOf(entry, "cmd");
  const command = commandPair?.value;
  if (commandPair === undefined || !isScalar(command) || typeof command.value !== "string" || command.range == null) {
    throw new EntryEditError("its command is not a plain string");
  }
  const commandScalar = command as Scalar<string> & { range: [number, number, number] };
  const commandSpan = { start: commandScalar.range[0], end: commandScalar.range[1] };
  const argsValue = pairOf(entry, "args")?.value;
  let args: ArgsPlace | null = null;
  if (argsValue !== undefined && argsValue !== null) {
    if (!isSeq(argsValue) || argsValue.range == null) throw new EntryEditError("its args are not a list");
    const seq = argsValue as YAMLSeq<unknown> & { range: [number, number, number] };
    const items = seq.items.map((item) => {
      if (!isScalar(item) || item.range == null) throw new EntryEditError("its args hold something other than plain values");
      return { start: item.range[0], end: item.range[1] };
    });
    args = seq.flow === true ? { items, open: seq.range[0], dashes: null } : { items, open: null, dashes: items.map((item) => dashBefore(text, item.start)) };
  }
  const key = commandPair.key as YamlNode & { range?: [number, number, number] | null };
  const keyStart = key.range?.[0] ?? commandSpan.start;
  return {
    command: commandSpan,
    args,
    addArgs: (elements) => {
      let end = text.indexOf("\n", commandSpan.end);
      if (end < 0) end = text.length;
      const crlf = text[end - 1] === "\r";
      const lineEnd = crlf ? end - 1 : end;
      const indent = " ".repeat(keyStart - (text.lastIndexOf("\n", keyStart - 1) + 1));
      return { start: lineEnd, end: lineEnd, text: `${crlf ? "\r\n" : "\n"}${indent}args: [${elements.join(", ")}]` };
    },
    literal: yamlLiteral,
    // Copied as written into a list: a multi-line, anchored, aliased or tagged scalar is not, and a
    // plain one with flow indicators would change meaning inside `[...]`.
    copyable: (raw) => !/[\n&*!|>]/.test(raw.charAt(0)) && !raw.includes("\n") && (args?.dashes != null || !/[,[\]{}]/.test(raw)),
  };
}

/** A YAML scalar: plain when it reads back as the same string in any context, double-quoted (JSON's escapes) otherwise. */
function yamlLiteral(value: string): string {
  const plain =
    /^[A-Za-z0-9_][A-Za-z0-9_./@+=-]*$/.test(value) &&
    !/^(?:true|false|null|yes|no|on|off|y|n|~)$/i.test(value) &&
    !/^[-+]?[0-9._]+(?:e[-+]?[0-9]+)?$/i.test(value) &&
    !/^0[xob]/i.test(value);
  return plain ? value : JSON.stringify(value);
}

function pairOf(map: YAMLMap<unknown, unknown>, name: string): Pair<unknown, unknown> | undefined {
  const pairs = map.items.filter((pair) => {
    const key = pair.key;
    return isScalar(key) ? key.value === name : key === name;
  });
  if (pairs.length > 1) throw new EntryEditError(`the entry has the key ${name} twice`);
  return pairs[0];
}

function dashBefore(text: string, offset: number): number {
  let at = offset - 1;
  while (at >= 0 && (text[at] === " " || text[at] === "\t")) at--;
  if (text[at] !== "-") throw new EntryEditError("its args list is written in an unusual block form");
  return at;
}
