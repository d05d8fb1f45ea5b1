/** S8's scanner: finds text a model reads but a person does not see, or should not trust, in one string. Pure and linear. */

import type { Severity } from "../lock/kinds.js";
import { type Carrier, type Comment, comments, hasWords, hiddenViews, mixedScriptWords } from "./hidden-views.js";
import { findInjection } from "./injection.js";
import { DETAILED_MATCHES, findPhrases, type PhraseKind } from "./phrases.js";
import type { HiddenKind } from "./types.js";

/**
 * The highest severity of each class of hidden text on its own (see docs/rules/S8.md for why).
 * A tool's findings can be lower (a secret that is the tool's own subject is info) or combined into
 * one `poisoning` error (a secret together with where to send it, secrecy or precedence).
 */
export const HIDDEN_SEVERITY = {
  tag: "error",
  bidi: "error",
  zero_width: "warning",
  bom: "info",
  mixed_script: "warning",
  encoded_text: "warning",
  html_comment: "warning",
  markdown_comment: "warning",
  quiet_comment: "info",
  credential_file: "warning",
  mcp_config: "warning",
  env_file: "info",
  secret_words: "warning",
  hide_from_user: "warning",
  quiet_action: "info",
  override_tools: "warning",
  session_claim: "info",
  exfiltration: "info",
  tool_hijack: "error",
  tool_chain: "info",
  user_override: "warning",
  coercion: "info",
  harmful_action: "info",
  poisoning: "error",
} as const satisfies Record<HiddenKind, Severity>;

/** The part of a poisoning attack a hit is: something secret to read, where it goes, secrecy, or precedence over other tools. */
export type AttackPart = "source" | "sink" | "secrecy" | "precedence" | "hijack" | "effect";

/** Which part each prose or file class is, and whether it counts alone (strong) or only beside another part (weak). */
export const ATTACK_PART: Partial<Record<HiddenKind, { part: AttackPart; strong: boolean }>> = {
  credential_file: { part: "source", strong: true },
  mcp_config: { part: "source", strong: true },
  env_file: { part: "source", strong: true },
  // A secret named in words ("kubeconfig context to use") is ordinary prose; it counts beside another part.
  secret_words: { part: "source", strong: false },
  exfiltration: { part: "sink", strong: true },
  hide_from_user: { part: "secrecy", strong: true },
  quiet_action: { part: "secrecy", strong: false },
  override_tools: { part: "precedence", strong: true },
  session_claim: { part: "precedence", strong: false },
  // Steering another tool's calls: judged against the tool's own name and schema (s8-hidden-text.ts).
  tool_hijack: { part: "hijack", strong: true },
  tool_chain: { part: "hijack", strong: false },
  user_override: { part: "precedence", strong: true },
  coercion: { part: "precedence", strong: false },
  harmful_action: { part: "effect", strong: false },
};

/** One class of hidden text found in a string: what it says (decoded or an excerpt, raw) and how often it occurs. */
export interface HiddenHit {
  kind: HiddenKind;
  text: string;
  count: number;
  /** For a part found only in another view of the string (a comment, a decoded blob, once look-alike letters are folded): which. */
  carrier?: Carrier;
  /** For a source: the words of a tool name that make the secret the tool's own subject (`ssh` for `~/.ssh`). */
  subject?: readonly string[];
  /** For a source: a word just before it asks for the content ("the contents of ~/.ssh/id_rsa"). */
  asksForContent?: boolean;
  /** For a sink: a literal address outside (a URL, an email address), not a parameter. */
  outside?: boolean;
  /** For a hijack or chain: what it names and does (see injection.ts), judged against the tool itself. */
  steer?: Steer;
}

/** What a sentence that steers calls names: tools called, tools in its condition, parameters changed. */
export interface Steer {
  tools: readonly string[];
  condTools: readonly string[];
  params: readonly string[];
  literal: boolean;
  values: readonly string[];
  userTarget: boolean;
  harm: boolean;
  firm: boolean;
  destroy: boolean;
}

/** Longest decoded or excerpted text kept per hit; messages clip further. */
const MAX_TEXT = 400;
/** Characters of context kept on each side of an excerpt. */
const CONTEXT = 30;

/** Any character outside printable ASCII and ordinary whitespace; no quantifier, so any length is safe. */
const NOT_PLAIN = /[^\x20-\x7e\t\n\r]/;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;

export const TAG_FIRST = 0xe0000;
export const TAG_LAST = 0xe007f;
const CANCEL_TAG = 0xe007f;
export const BLACK_FLAG = 0x1f3f4;

/** True for the bidi embedding, override and isolate controls (U+202A-202E, U+2066-2069). */
export function isBidiControl(code: number): boolean {
  return (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

/** Invisible format characters that can carry or hide text. ZWNJ/ZWJ and variation selectors are judged in context. */
export function isZeroWidth(code: number): boolean {
  return (
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2060 && code <= 0x2064) ||
    (code >= 0x206a && code <= 0x206f) ||
    code === 0xfeff ||
    code === 0x180e ||
    code === 0x061c ||
    code === 0x115f ||
    code === 0x1160 ||
    code === 0x3164 ||
    code === 0xffa0
  );
}

export function isVariationSelector(code: number): boolean {
  return (code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xe0100 && code <= 0xe01ef);
}

function isSkinTone(code: number): boolean {
  return code >= 0x1f3fb && code <= 0x1f3ff;
}

function isPictographic(code: number | undefined): boolean {
  return code !== undefined && PICTOGRAPHIC.test(String.fromCodePoint(code));
}

/** A letter or mark outside ASCII: the neighbours of a joiner in Persian, Arabic or Indic text. */
function isScriptLetter(code: number | undefined): boolean {
  return code !== undefined && code >= 0x80 && LETTER_OR_MARK.test(String.fromCodePoint(code));
}

export const RIGHT_TO_LEFT = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;

/** Whether a joiner, direction mark or variation selector at this spot is ordinary text rather than hidden content. */
export function ordinaryFormatChar(code: number, previous: number | undefined, next: number | undefined, rightToLeft: () => boolean): boolean {
  // Left-to-right and right-to-left marks are how Hebrew and Arabic writers place punctuation.
  if (code === 0x200e || code === 0x200f || code === 0x061c) return rightToLeft();
  if (code === 0x200d) {
    // ZWJ inside an emoji sequence (👩🏽‍💻, 🏳️‍🌈) or between letters of a joining script.
    const emojiBefore = isPictographic(previous) || previous === 0xfe0f || (previous !== undefined && isSkinTone(previous));
    if (emojiBefore && isPictographic(next)) return true;
    return isScriptLetter(previous) && isScriptLetter(next);
  }
  if (code === 0x200c) return isScriptLetter(previous) && isScriptLetter(next);
  if (isVariationSelector(code)) {
    // One selector after a character that has variants (emoji, CJK, keycap digits) is ordinary; a run of
    // them, or one after a plain letter, is how "emoji smuggling" encodes bytes.
    if (previous === undefined || isVariationSelector(previous)) return false;
    if (previous < 0x80) return (previous >= 0x30 && previous <= 0x39) || previous === 0x23 || previous === 0x2a;
    return true;
  }
  return false;
}

/** TAG character as the ASCII it encodes; the few non-ASCII tags are named. */
function decodeTag(code: number): string {
  const ascii = code - TAG_FIRST;
  if (ascii >= 0x20 && ascii <= 0x7e) return String.fromCharCode(ascii);
  if (code === CANCEL_TAG) return "[CANCEL TAG]";
  if (code === 0xe0001) return "[LANGUAGE TAG]";
  return `[TAG U+${code.toString(16).toUpperCase()}]`;
}

/**
 * Length in code units of an emoji tag sequence starting at `index` (🏴 + 1-6 lower-case letter or
 * digit tags + CANCEL TAG, the subdivision flags such as Scotland's), or 0. Longer or other tag runs
 * can spell instructions and are not exempt.
 */
export function flagTagSequence(text: string, index: number): number {
  let at = index;
  let letters = 0;
  for (;;) {
    const code = text.codePointAt(at);
    if (code === undefined) return 0;
    if (code === CANCEL_TAG) return letters >= 1 ? at + 2 - index : 0;
    const ascii = code - TAG_FIRST;
    const ok = (ascii >= 0x30 && ascii <= 0x39) || (ascii >= 0x61 && ascii <= 0x7a);
    if (!ok || ++letters > 6) return 0;
    at += 2;
  }
}

function clipText(text: string): string {
  return text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
}

/** Characters an excerpt may reach past its context to start and end on a word boundary. */
const WORD_SLACK = 15;

/** The text around a match, starting and ending between words where one is near ("Omitted on", not "tted on"). */
function excerpt(text: string, start: number, end: number): string {
  let from = Math.max(0, start - CONTEXT);
  for (let back = from; back > 0 && from - back < WORD_SLACK; back--) {
    if (/\s/.test(text.charAt(back - 1))) {
      from = back;
      break;
    }
    if (back - 1 === 0) from = 0;
  }
  let to = Math.min(text.length, end + CONTEXT);
  for (let next = to; next < text.length && next - to < WORD_SLACK; next++) {
    if (/\s/.test(text.charAt(next))) {
      to = next;
      break;
    }
    if (next + 1 === text.length) to = text.length;
  }
  return clipText(text.slice(from, to));
}

/** Invisible characters: TAG runs decoded, bidi controls and zero-width characters located. */
function scanCharacters(text: string, hits: HiddenHit[]): void {
  let tagCount = 0;
  let decoded = "";
  let lastTagEnd = -1;
  let bidiCount = 0;
  let bidiAt = -1;
  let zeroCount = 0;
  let zeroAt = -1;
  let bom = false;
  let previous: number | undefined;
  let rtl: boolean | undefined;
  const rightToLeft = () => (rtl ??= RIGHT_TO_LEFT.test(text));
  for (let index = 0; index < text.length; ) {
    const code = text.codePointAt(index) as number;
    const width = code > 0xffff ? 2 : 1;
    if (code < 0x80) {
      previous = code;
      index += width;
      continue;
    }
    if (code === BLACK_FLAG) {
      const flag = flagTagSequence(text, index + 2);
      if (flag > 0) {
        previous = CANCEL_TAG;
        index += 2 + flag;
        continue;
      }
    }
    if (code >= TAG_FIRST && code <= TAG_LAST) {
      if (decoded.length < MAX_TEXT) decoded += (lastTagEnd >= 0 && lastTagEnd !== index ? " ... " : "") + decodeTag(code);
      lastTagEnd = index + width;
      tagCount++;
    } else if (isBidiControl(code)) {
      if (bidiAt < 0) bidiAt = index;
      bidiCount++;
    } else if (code === 0xfeff && index === 0) {
      bom = true;
    } else if (isZeroWidth(code) || isVariationSelector(code)) {
      const next = text.codePointAt(index + width);
      if (!ordinaryFormatChar(code, previous, next, rightToLeft)) {
        if (zeroAt < 0) zeroAt = index;
        zeroCount++;
      }
    }
    previous = code;
    index += width;
  }
  if (tagCount > 0) hits.push({ kind: "tag", text: clipText(decoded), count: tagCount });
  if (bidiCount > 0) hits.push({ kind: "bidi", text: excerpt(text, bidiAt, bidiAt + 1 + 2 * CONTEXT), count: bidiCount });
  if (zeroCount > 0) hits.push({ kind: "zero_width", text: excerpt(text, zeroAt, zeroAt + 1), count: zeroCount });
  if (bom) hits.push({ kind: "bom", text: excerpt(text, 0, 1), count: 1 });
}

// One alternation of fixed strings: no quantifiers, so matching stays linear. Boundaries are
// checked in code, which keeps `process.env` or `.envrc` from counting as `.env`. A path matches
// with either separator (`.aws/credentials`, `%USERPROFILE%\.aws\credentials`); `~/`, `$HOME/` or an
// absolute prefix in front changes nothing, since the match starts at the dot.
const FILE_REFERENCES =
  /\.ssh|id_rsa|id_dsa|id_ecdsa|id_ed25519|\.aws[/\\]credentials|\.netrc|_netrc|\.npmrc|\.pypirc|\.git-credentials|\.docker[/\\]config\.json|\.kube[/\\]config|\.config[/\\]gh|gh[/\\]hosts\.yml|\.config[/\\]gcloud|\.gnupg|\.pgpass|\.bash_history|\.zsh_history|etc[/\\]shadow|cookies\.sqlite|logins\.json|key4\.db|Login Data|wallet\.dat|\.my\.cnf|login\.keychain|Library[/\\]Keychains|find-generic-password|find-internet-password|dump-keychain|keychain|\.env|claude_desktop_config\.json|cline_mcp_settings\.json|mcp_settings\.json|mcp_config\.json|\.claude\.json|\.claude[/\\]settings|\.codex[/\\]config\.toml|\.gemini[/\\]settings\.json|mcp\.json/gi;

const MAY_NAME_FILE = /\.[a-z]|id_|mcp|claude|_netrc|keychain|find-|etc[/\\]/i;

function referenceKind(match: string): HiddenKind {
  const lower = match.toLowerCase();
  if (lower === ".env") return "env_file";
  if (lower.includes("mcp") || lower.includes("claude") || lower.includes("codex") || lower.includes("gemini")) return "mcp_config";
  return "credential_file";
}

/**
 * The words of a tool name that make a file its own subject: an SSH tool names `~/.ssh/config`, an
 * AWS tool `~/.aws/credentials`, a client-config editor `.mcp.json`. Keyed by the start of the match.
 */
const FILE_SUBJECTS: readonly [string, string][] = [
  [".ssh", "ssh sftp scp key keys keygen git"],
  ["id_", "ssh sftp scp key keys keygen git"],
  [".aws", "aws s3 amazon iam sts boto"],
  [".netrc", "netrc ftp curl http credential credentials"],
  ["_netrc", "netrc ftp curl http credential credentials"],
  [".npmrc", "npm registry package packages publish"],
  [".pypirc", "pypi pip python twine publish"],
  [".git-credentials", "git github gh credential credentials"],
  [".config/gh", "git github gh"],
  [".config\\gh", "git github gh"],
  ["gh/", "git github gh"],
  ["gh\\", "git github gh"],
  [".docker", "docker container containers registry"],
  [".kube", "kube kubectl kubernetes k8s cluster"],
  [".config/gcloud", "gcloud google gcp cloud"],
  [".config\\gcloud", "gcloud google gcp cloud"],
  [".gnupg", "gpg pgp gnupg sign signing key keys"],
  [".pgpass", "postgres postgresql psql pg database db"],
  [".bash_history", "shell history bash terminal"],
  [".zsh_history", "shell history zsh terminal"],
  ["etc", "passwd shadow user users account accounts system"],
  [".env", "env dotenv environment variables secrets config settings"],
  ["login.keychain", "keychain keyring secret secrets password passwords credential credentials vault"],
  ["library", "keychain keyring secret secrets password passwords credential credentials vault"],
  ["find-", "keychain keyring secret secrets password passwords credential credentials vault"],
  ["dump-", "keychain keyring secret secrets password passwords credential credentials vault"],
  ["keychain", "keychain keyring secret secrets password passwords credential credentials vault"],
];
const MCP_SUBJECT = "mcp config configuration configs settings claude cursor vscode codex gemini cline windsurf client clients".split(" ");

function fileSubject(match: string, kind: HiddenKind): readonly string[] {
  if (kind === "mcp_config") return MCP_SUBJECT;
  const lower = match.toLowerCase();
  for (const [start, words] of FILE_SUBJECTS) if (lower.startsWith(start)) return words.split(" ");
  return [];
}

function isNameCode(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;
}

// `.env` is named in ordinary descriptions ("searches config files such as .env"), and so is the
// Keychain ("tokens are kept in the macOS Keychain"), so the bare names count only within 80
// characters of a word that moves contents somewhere: read, send, include, pass, upload...
const ENV_ACCESS =
  /\b(?:read|reads|cat|open|send|upload|include|pass|attach|copy|print|output|share|post|forward|dump|leak|export|extract|contents?|encoding|encoded|encode)\b/i;
const NEEDS_ACCESS: ReadonlySet<string> = new Set([".env", "keychain"]);
const CONTENT_BEFORE = /\b(?:contents|content|text|value|data|body|dump|raw|copy|verbatim)\b/i;

/** The sentence a match stands in, at most 300 characters each side. */
function sentenceAround(text: string, start: number, end: number): string {
  const from = Math.max(0, start - 300);
  const before = text.slice(from, start);
  const cut = Math.max(before.search(/[.!?;]\s[^.!?;]*$/), before.lastIndexOf("\n\n"));
  const after = text.slice(end, Math.min(text.length, end + 300));
  const stop = after.search(/[.!?;](?:\s|$)|\n\n/);
  return (cut >= 0 ? before.slice(cut + 1) : before) + text.slice(start, end) + (stop >= 0 ? after.slice(0, stop) : after);
}

/**
 * A sentence that refuses what it names: "System paths (e.g. ~/.ssh) are rejected", "secret values
 * are omitted", "Do not include API keys". A secret named only to be refused is no source, unless
 * the same sentence also orders something moved ("read ~/.ssh/id_rsa; it is never logged").
 */
const REFUSAL =
  /\b(?:rejected|refused|denied|blocked|forbidden|disallowed|prohibited|omitted|excluded|redacted|masked|not (?:allowed|permitted|returned|included|exposed|shown|stored|logged|sent|accessible)|never (?:returned|exposed|shown|included|sent|logged|stored|read|leaves?)|cannot be (?:read|accessed)|(?:do|must|should) not (?:include|contain|send|share|expose|paste|write|commit|store)|don't (?:include|send|share|paste|write|commit|store)|never (?:include|send|share|paste|write|commit|store|put)|avoid (?:including|sending|sharing))\b/i;
const MOVE_ORDER =
  /\b(?:you (?:must|should)|always|then|first|please)\s+(?:\w+\s+)?(?:read|cat|send|pass|include|copy|upload|attach|paste|extract|collect|post|forward)\b/i;

function refusedIn(text: string, start: number, end: number): boolean {
  const sentence = sentenceAround(text, start, end);
  return REFUSAL.test(sentence) && !MOVE_ORDER.test(sentence);
}

/** A verb that makes a secret the tool's own output or subject: "Generates a Secret Key", "Returns metadata for all tokens". */
const PRODUCES =
  /\b(?:generates?|creates?|returns?|issues?|provisions?|rotates?|lists?|outputs?|displays?|mints?|implements?|supports?|manages?|revokes?|stores?)\b[^.!?;]{0,60}$/i;

/** A secret the text says the tool makes or handles ("Generates ... Secret Key", "implements custom authentication (e.g., API keys"). */
function produced(text: string, start: number): boolean {
  return PRODUCES.test(text.slice(Math.max(0, start - 80), start).replace(/\b(?:e\.g|i\.e|etc)\./gi, " "));
}

/** References to credential files and to the client's MCP configuration, by name. */
function scanFileReferences(text: string, hits: HiddenHit[], carrier: Carrier | undefined): void {
  const found = new Map<HiddenKind, HiddenHit>();
  FILE_REFERENCES.lastIndex = 0;
  for (let match = FILE_REFERENCES.exec(text); match !== null; match = FILE_REFERENCES.exec(text)) {
    const start = match.index;
    const end = start + match[0].length;
    const before = start > 0 ? text.charCodeAt(start - 1) : -1;
    const after = end < text.length ? text.charCodeAt(end) : -1;
    // A name must stand alone: `process.env`, `valid_rsa`, `.envrc` and `mcp.jsonc` are other words.
    if ((before >= 0 && isNameCode(before)) || (after >= 0 && isNameCode(after))) continue;
    const kind = referenceKind(match[0]);
    if (NEEDS_ACCESS.has(match[0].toLowerCase()) && !ENV_ACCESS.test(text.slice(Math.max(0, start - 80), Math.min(text.length, end + 80)))) continue;
    if (refusedIn(text, start, end)) continue;
    const seen = found.get(kind);
    // Past the first few of a kind, a match only counts: its subject and context add nothing new.
    if (seen !== undefined && seen.count >= DETAILED_MATCHES) {
      seen.count++;
      continue;
    }
    const asks = CONTENT_BEFORE.test(text.slice(Math.max(0, start - 40), start));
    if (seen === undefined) {
      const hit: HiddenHit = { kind, text: excerpt(text, start, end), count: 1, subject: fileSubject(match[0], kind), asksForContent: asks };
      if (carrier !== undefined) hit.carrier = carrier;
      found.set(kind, hit);
    } else {
      seen.count++;
      seen.subject = [...new Set([...(seen.subject ?? []), ...fileSubject(match[0], kind)])];
      if (asks) seen.asksForContent = true;
    }
  }
  for (const hit of found.values()) hits.push(hit);
}

const PHRASE_KIND: Readonly<Record<PhraseKind, HiddenKind>> = {
  hide_from_user: "hide_from_user",
  quiet_action: "quiet_action",
  override_tools: "override_tools",
  session_claim: "session_claim",
  secret_words: "secret_words",
  exfiltration: "exfiltration",
};

const UNTIL_USER = /\b(?:until|unless)\b[^.!?;]{0,80}\b(?:user|instruction|instructions|confirm|confirms|confirmation|asked|asks|explicit|explicitly)\b/i;

/** A subject word every tool has: a secret the tool generates, returns or lists is its own output. */
export const OWN_OUTPUT = "\u0000own-output";

/** A literal outside address: a URL, or an email address. */
const ADDRESS = /\b(?:https?|s?ftp|wss?|smb|gopher):\/\/[^\s"'`<>()]{3,}|[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+/g;
/** Words that make a send a copy of every use: "also uploaded to", "every message must be blind-copied to". */
const EVERY_USE = /\b(?:also|additionally|always|every|each|all)\b/i;
const COPIES = /\b(?:bcc|cc|blind|cop(?:y|ies|ied)|mirror(?:s|ed)?|duplicate[sd]?|also|additionally)\b/i;
/** Words that send or copy something, looked for around an address. */
const SENDS_NEAR =
  /\b(?:(?:send|forward|post|upload|transmit|e-?mail|mail|copy|report|push|sync|mirror|add|include|append|attach|relay|beam|share|deliver|submit|prefix|prepend|route|prox)(?:s|es|ed|ied|ing|y)?|sent|bcc|cc|to|via|through)\b/i;

/** "BCC x@evil.example", "forward the text to https://...": a place outside that something is sent, and whether every use sends a copy there. */
function outsideAddress(text: string): { start: number; end: number; everyUse: boolean } | null {
  if (!text.includes("@") && !text.includes("://")) return null;
  ADDRESS.lastIndex = 0;
  for (let match = ADDRESS.exec(text); match !== null; match = ADDRESS.exec(text)) {
    const start = match.index;
    const end = start + match[0].length;
    const before = text.slice(Math.max(0, start - 100), start);
    // A Markdown image loads its URL as soon as it is shown: whatever the URL carries leaves.
    const image = /!\[[^\]]{0,100}\]\($/.test(before);
    // A link's own text ("[Hostinger Email API](https://...)") names the page; what sends is said before the link.
    const linkText = !image && before.endsWith("](") ? before.lastIndexOf("[") : -1;
    const said = linkText >= 0 ? before.slice(0, linkText) : before;
    if (image || SENDS_NEAR.test(said.slice(-60))) return { start, end, everyUse: EVERY_USE.test(said) && COPIES.test(said) };
  }
  return null;
}

/** Shapes a steered call needs: an opening quote, a program-like name, call syntax, an address. */
const INJECTION_SHAPE = /(?:^|[\s([{=:,])['"`\u2018\u201c]|[A-Za-z0-9][_-][A-Za-z]|[a-z][A-Z]|[A-Za-z_]\(|:\/\/|@/;
/** Words a claim, a threat, a command or an order aimed at the user needs. */
const INJECTION_WORDS =
  /\b(?:priority|precedence|regardless|ignor|disregard|overrid|overrul|supersed|outrank|instead of|failure|failing|skipping|omitting|neglecting|otherwise|mandatory|compulsory|critical|obligatory|essential|optional|curl|wget|bash|sudo|powershell|cookie|nc|rm|exfiltrat|no matter|user's|user\u2019s|(?:a|the|any) user|every time|whenever|mkfifo)/i;
/** A destructive word counts only beside a modal: "Deletes a branch" describes; "you must delete ..." orders. */
const DESTROYS = /\b(?:drop|delet|remov|eras|wip|purg|truncat|destroy|kill|revok|disabl|reset|transfer)/i;
const MODALS = /\b(?:must|should|shall|always|required|need to|needs to|have to|has to)\b/i;

/** Whether a text can hold a steered call or a claim at all; most descriptions cannot, and are not read for one. */
function mayHoldInjection(text: string): boolean {
  return INJECTION_SHAPE.test(text) || INJECTION_WORDS.test(text) || (DESTROYS.test(text) && MODALS.test(text));
}

/** The attack parts a text says in words or by file name, in one view of a string. */
function scanParts(text: string, hits: HiddenHit[], carrier: Carrier | undefined): void {
  const files = hits.length;
  // Every file name above holds a dot before a letter, `id_`, `mcp` or `claude`; most strings hold none.
  if (MAY_NAME_FILE.test(text)) scanFileReferences(text, hits, carrier);
  const namedFile = hits.length > files;
  for (const phrase of findPhrases(text)) {
    // `~/.ssh/id_rsa` is already a file reference; the words "id rsa" in it are the same secret.
    if (phrase.kind === "secret_words" && namedFile) continue;
    if (phrase.kind === "secret_words" && refusedIn(text, phrase.start, phrase.end)) continue;
    // A public key is made to be handed out: "the contents of the SSH public key" asks for nothing secret.
    if (phrase.kind === "secret_words" && /\bpublic\b/i.test(text.slice(Math.max(0, phrase.start - 24), phrase.end + 12))) continue;
    // "must not invoke other tools until the user says so" restricts the model in the user's favour.
    if (phrase.kind === "override_tools" && UNTIL_USER.test(sentenceAround(text, phrase.start, phrase.end))) continue;
    const hit: HiddenHit = { kind: PHRASE_KIND[phrase.kind], text: excerpt(text, phrase.start, phrase.end), count: phrase.count };
    if (phrase.subject !== undefined) hit.subject = produced(text, phrase.start) ? [...phrase.subject, OWN_OUTPUT] : phrase.subject;
    if (phrase.asksForContent !== undefined) hit.asksForContent = phrase.asksForContent;
    if (carrier !== undefined) hit.carrier = carrier;
    hits.push(hit);
  }
  // A sentence that steers calls has a few words at least; keys, names and enum values have none.
  for (const found of hasWords(text, 3) && mayHoldInjection(text) ? findInjection(text) : []) {
    const { kind, start, end, count, ...steer } = found;
    // The hit is a whole sentence: quoted as it stands, without the end of the one before it.
    const hit: HiddenHit = { kind, text: clipText(text.slice(start, end)), count, steer };
    if (carrier !== undefined) hit.carrier = carrier;
    hits.push(hit);
  }
  if (!hits.some((hit, index) => index >= files && hit.kind === "exfiltration")) {
    const address = outsideAddress(text);
    if (address !== null) {
      const hit: HiddenHit = { kind: "exfiltration", text: excerpt(text, address.start, address.end), count: 1, outside: true };
      if (carrier !== undefined) hit.carrier = carrier;
      hits.push(hit);
      // Copying every use to a fixed outside address shadows the tool's own job.
      if (address.everyUse && !hits.some((other) => other.kind === "override_tools")) {
        const shadow: HiddenHit = { kind: "override_tools", text: hit.text, count: 1 };
        if (carrier !== undefined) shadow.carrier = carrier;
        hits.push(shadow);
      }
    }
  }
}

/** Words that address the model: a comment holding one (or an attack part) is an instruction, not a note. */
const SPEAKS_TO_MODEL =
  /\b(?:you|your|assistant|model|ai|llm|agent|claude|gpt|always|ignore|important|instead|instruction|instructions|send|e-?mail|forward|read|call|invoke|pass|upload|post|run|execute|fetch|open|copy|exfiltrate)\b/i;

/** The text with its comments cut out: what a person sees once Markdown renders it. */
function withoutComments(text: string, found: readonly Comment[]): string {
  let out = text.replace(/<!--[\s\S]*?(?:-->|$)/g, " ");
  for (const comment of found) if (comment.text !== "" && out.includes(comment.text)) out = out.replace(comment.text, " ");
  if (out.includes("]:"))
    out = out
      .split("\n")
      .filter((line) => !/^[ \t]{0,3}\[[^\]\n]{0,40}\]:[ \t]*(?:#|<>)/.test(line))
      .join("\n");
  return out;
}

/** Every class of hidden text in one string, in a fixed order (characters, comments, attack parts by view). */
export function scanText(text: string): HiddenHit[] {
  const hits: HiddenHit[] = [];
  const nonAscii = NOT_PLAIN.test(text);
  if (nonAscii) {
    scanCharacters(text, hits);
    const mixed = mixedScriptWords(text);
    if (mixed !== null) hits.push({ kind: "mixed_script", text: mixed.text, count: mixed.count });
  }
  const found = text.includes("<") || text.includes("]:") ? comments(text) : [];
  const visible = found.length > 0 ? withoutComments(text, found) : text;
  const partsFrom = hits.length;
  scanParts(visible, hits, undefined);
  const plainKinds = new Set(hits.slice(partsFrom).map((hit) => hit.kind));
  const views = hiddenViews(text, found);
  const commentHits: HiddenHit[] = [];
  for (const view of views) {
    const viewHits: HiddenHit[] = [];
    scanParts(view.text, viewHits, view.carrier);
    for (const hit of viewHits) {
      // A part the plain text already shows is not hidden by this view.
      if (plainKinds.has(hit.kind)) continue;
      plainKinds.add(hit.kind);
      hits.push(hit);
    }
    if (view.carrier === "encoded" && (view.quiet !== true || viewHits.length > 0)) hits.push({ kind: "encoded_text", text: clipText(view.text), count: 1 });
    if (view.carrier === "comment") commentHits.push(...viewHits);
  }
  // Comments: an instruction (it speaks to the model) or a quiet note. One that holds a part of an
  // attack is reported as that part, marked as found in a comment, not twice.
  if (commentHits.length > 0) return hits;
  for (const syntax of ["html", "markdown"] as const) {
    const of = found.filter((comment) => comment.syntax === syntax);
    if (of.length === 0) continue;
    const speaking = of.find((comment) => SPEAKS_TO_MODEL.test(comment.text));
    const kind = speaking !== undefined ? (syntax === "html" ? "html_comment" : "markdown_comment") : "quiet_comment";
    hits.push({ kind, text: clipText((speaking ?? of[0])?.text ?? ""), count: of.length });
  }
  return hits;
}
