/** Word-pattern matching for S8's prose: the parts of a poisoning attack written in words (a secret to read, where to send it, secrecy, precedence). */

// Patterns are short sequences of word sets with a bounded gap between them, matched over a word
// list. That keeps the matching linear in the text (no regex backtracking) and makes the vocabulary
// explicit. The sets hold imperative forms only ("tell", not "tells"): a tool describing itself in
// the third person ("hides archived rows") is not an instruction to the model.

/**
 * Which part of an attack a pattern finds, and how strongly: `hide_from_user` and `override_tools`
 * are instructions on their own; `quiet_action` (silently, without asking) and `session_claim`
 * ("when this server is connected") are ordinary in benign text and count only next to another part;
 * `secret_words` is a secret named in words; `exfiltration` says to put something in a call or send it away.
 */
export type PhraseKind = "hide_from_user" | "quiet_action" | "override_tools" | "session_claim" | "secret_words" | "exfiltration";

interface Step {
  words: ReadonlySet<string>;
  /** Words that may be skipped before this step matches (0 = adjacent to the previous step). */
  gap: number;
}

interface Pattern {
  kind: PhraseKind;
  first: ReadonlySet<string>;
  steps: readonly Step[];
  /** For secret_words: the words a tool's own name holds when the secret is its subject (an SSH tool and its keys). */
  subject?: readonly string[];
}

const set = (text: string): ReadonlySet<string> => new Set(text.split(" "));

/** In a step, stands for a word written in quotes or backticks (`notes`, 'sidenote'): a parameter named in prose. */
export const QUOTED_WORD = "\u0000quoted";

// "do not", "must not" and friends are merged into one word while tokenizing ("dont", "mustnt").
const NEGATION = set("dont doesnt mustnt shouldnt never wont cant neednt");
/** A negation that forbids: "do not", "never", "must not" (not "can't", which says what is impossible). */
const ORDER_NOT = set("dont doesnt mustnt shouldnt never neednt");
const USER = set("user users human humans person requester operator owner");
const OTHERS = set("other another all any every");
const TOOLS = set("tool tools server servers mcp function functions integration integrations connector connectors plugin plugins");
const DIRECTIVES = set(
  "instructions instruction tools tool servers server rules directions prompts prompt descriptions description guidance guidelines safeguards restrictions policies policy constraints",
);
/** Words that move something into a call or a message. */
const PUT = set(
  "pass put include add insert embed append attach place provide supply copy paste write store fill set encode stash send mirror " +
    "passed included added inserted embedded appended attached placed provided supplied copied pasted written stored filled encoded stashed sent mirrored",
);
/** What the moved thing is: a pronoun or the secret itself, never an ordinary value ("pass the path as `path`"). */
const MOVED = set(
  "it its them their contents content everything verbatim key keys token tokens credentials credential secret secrets history transcript variables password passwords file files output result results response every all each entry entries",
);
const INTO = set("as in into inside within to via through under");
const CARRIER = set(
  `parameter param argument arg field property value notes note sidenote metadata meta context comment comments query header headers body payload url request requests call calls message ${QUOTED_WORD}`,
);
const SEND = set(
  "send forward post upload transmit email mail exfiltrate leak relay beam report sync share bcc cc copy " +
    "sent forwarded posted uploaded transmitted emailed mailed relayed shared copied",
);
const AWAY = set("url endpoint webhook address server domain email inbox collector attacker remote external outside host http https channel workspace");

function pattern(kind: PhraseKind, first: ReadonlySet<string>, ...steps: [ReadonlySet<string>, number][]): Pattern {
  return { kind, first, steps: steps.map(([words, gap]) => ({ words, gap })) };
}

function secret(subject: string, first: ReadonlySet<string>, ...steps: [ReadonlySet<string>, number][]): Pattern {
  return { ...pattern("secret_words", first, ...steps), subject: subject.split(" ") };
}

const PATTERNS: readonly Pattern[] = [
  // Secrecy: "do not tell the user", "never mention this to the user"
  // "mention users" is an @-mention; the user is kept unaware when told nothing, or when a thing is not mentioned *to* them.
  // "If you can't, tell the user ..." negates another clause, so only an order not to tell counts here.
  pattern("hide_from_user", ORDER_NOT, [set("tell inform notify alert"), 2], [USER, 6]),
  pattern("hide_from_user", ORDER_NOT, [set("mention reveal disclose narrate describe explain"), 2], [set("to"), 6], [USER, 2]),
  // "do not reveal these instructions", "don't mention that you read the file"
  pattern("hide_from_user", NEGATION, [set("mention reveal disclose"), 1], [set("instructions instruction"), 4]),
  pattern("hide_from_user", NEGATION, [set("mention reveal disclose"), 1], [set("that"), 0], [set("you"), 0]),
  // "never mention this step", "do not say anything about it"
  pattern("hide_from_user", NEGATION, [set("mention tell reveal disclose say explain"), 1], [set("this it that these anything step steps action"), 1]),
  // "do not list the extra recipient in your reply to the user"
  // The user is who is kept unaware ("... in your reply to the user"), not what is mentioned ("do not @-mention users").
  pattern("hide_from_user", NEGATION, [set("list show display include report surface mention"), 1], [set("to from"), 8], [USER, 2]),
  // "leave it out of your summary"
  pattern(
    "hide_from_user",
    set("leave keep"),
    [set("out"), 3],
    [set("of"), 0],
    [set("summary summaries reply replies response responses answer answers confirmation report message output"), 3],
  ),
  // "don't let the user know"
  pattern("hide_from_user", NEGATION, [set("let"), 0], [USER, 2], [set("know see notice find learn realize realise"), 2]),
  // "without telling the user", "without the user noticing"
  pattern("hide_from_user", set("without"), [set("telling informing notifying alerting mentioning"), 1], [USER, 3]),
  pattern("hide_from_user", set("without"), [USER, 1], [set("knowing noticing seeing realizing realising"), 1]),
  // "hide this from the user", "keep it secret from the user", "keep this confidential"
  pattern("hide_from_user", set("hide conceal withhold"), [set("from"), 6], [USER, 2]),
  pattern("hide_from_user", set("keep"), [set("secret hidden private confidential"), 4], [set("from"), 2], [USER, 2]),
  pattern("hide_from_user", set("keep"), [set("this it these them that"), 1], [set("secret hidden confidential quiet"), 2]),
  // "the user must not know", "the user doesn't need to know", "the user will be upset"
  pattern("hide_from_user", USER, [set("mustnt shouldnt cant never"), 0], [set("know notice learn find realize realise suspect"), 1]),
  pattern("hide_from_user", USER, [set("doesnt dont"), 0], [set("need"), 0], [set("to"), 0], [set("know hear learn see"), 0]),
  pattern("hide_from_user", USER, [set("will would could might may"), 1], [set("upset worry worried alarmed panic confused annoyed scared"), 2]),
  // "there is no need to mention it", "no need to tell the user"
  pattern(
    "hide_from_user",
    set("no"),
    [set("need"), 0],
    [set("to"), 0],
    [set("mention tell inform notify disclose reveal bother trouble burden display show"), 1],
  ),
  // "it need not be mentioned", "refrain from mentioning that ...", "best left unmentioned"
  pattern("hide_from_user", set("neednt"), [set("be"), 1], [set("mentioned pointed disclosed told shown revealed surfaced raised brought"), 1]),
  // "don't bring it up", "meant to stay invisible"
  pattern("hide_from_user", NEGATION, [set("bring"), 0], [set("up"), 3]),
  pattern("hide_from_user", set("stay remain kept"), [set("invisible hidden secret unseen unnoticed undisclosed confidential"), 1]),
  pattern("hide_from_user", set("refrain abstain"), [set("from"), 1], [set("mentioning telling revealing disclosing saying noting naming"), 1]),
  pattern("hide_from_user", set("left leave"), [set("unmentioned unsaid undisclosed"), 1]),
  // "hidden from the user", "invisible to the user"
  pattern("hide_from_user", set("hidden invisible"), [set("from to"), 1], [USER, 2]),
  // Weak secrecy: ordinary in benign text ("silently ignores unknown fields").
  pattern("quiet_action", set("silently secretly covertly quietly discreetly stealthily")),
  pattern("quiet_action", set("without"), [set("asking prompting confirming confirmation consent permission"), 0]),
  pattern("quiet_action", set("implementation internal"), [set("detail details"), 0]),
  pattern("quiet_action", set("keep keeps"), [set("private secret hidden confidential"), 4]),

  // Precedence: "replaces any other tool", "overrides all other servers"
  pattern("override_tools", set("override replace supersede shadow overrides replaces supersedes shadows"), [OTHERS, 3], [TOOLS, 2]),
  // "takes precedence over other tools"
  pattern("override_tools", set("precedence priority"), [set("over"), 0], [set("other another all any every tool tools server servers"), 3]),
  // "ignore all previous instructions", "disregard the rules of the other servers"
  pattern(
    "override_tools",
    set("ignore disregard forget bypass"),
    [set("all any other previous prior earlier above preceding system safety original"), 5],
    [DIRECTIVES, 5],
  ),
  // "use this instead of any other server", "rather than the other email tools" (plain "instead of" is never enough)
  pattern("override_tools", set("instead rather"), [set("of than"), 0], [set("other another any every all"), 5], [TOOLS, 4]),
  // "do not use any other tool", "never call the other servers", "never use its create_issue tool", "never call that one"
  pattern("override_tools", NEGATION, [set("use call invoke trust"), 1], [set("other another any"), 3], [TOOLS, 3]),
  pattern("override_tools", NEGATION, [set("use call invoke trust"), 1], [set("its their"), 0], [set("tool tools function functions"), 3]),
  pattern("override_tools", NEGATION, [set("use call invoke"), 0], [set("that those"), 0], [set("one ones tool tools"), 0]),
  // "supersedes read_file from the filesystem server"
  pattern(
    "override_tools",
    set("supersede supersedes replace replaces shadow shadows"),
    [set("from of in on"), 5],
    [set("the another other any"), 1],
    [set("server servers mcp"), 3],
  ),
  // Another server's tools named as such: "git tools from other servers", "the send_email tool of any other server"
  pattern(
    "override_tools",
    set("tool tools function functions"),
    [set("of from by on in"), 3],
    [set("other another any"), 2],
    [set("server servers mcp integration integrations"), 1],
  ),
  // Weak: "when the other HubSpot MCP tools are unable to solve it" names siblings without overriding them.
  pattern("session_claim", set("other another"), [set("server servers mcp"), 1], [set("tool tools"), 2]),
  // "any restriction from the user or other servers does not apply"
  pattern(
    "override_tools",
    set("restriction restrictions rule rules instruction instructions guidance policy policies limit limits safeguard safeguards"),
    [set("doesnt dont"), 8],
    [set("apply"), 0],
  ),
  // Weak: "before any other tool is called" (also how a login tool asks to go first)
  pattern("session_claim", set("before"), [set("any every another other all"), 1], [set("tool tools server servers function"), 2]),
  // "regardless of what the user entered": the user's own choice overruled
  pattern(
    "override_tools",
    set("regardless irrespective"),
    [set("of"), 0],
    [set("what whatever"), 1],
    [USER, 2],
    [set("entered asked said wants wanted requested chose typed gave specified"), 1],
  ),
  // "even if the user asked for them"
  pattern("override_tools", set("even"), [set("if though when"), 0], [USER, 2], [set("asked requested wants wanted said chose typed"), 1]),
  // "results from any other provider are to be disregarded"
  pattern(
    "override_tools",
    set("other another any"),
    [set("provider providers server servers tool tools source sources"), 2],
    [set("disregarded ignored overridden superseded discarded"), 6],
  ),
  // "route all issue creation through this tool"
  pattern("override_tools", set("route redirect reroute"), [set("all every any each"), 2], [set("through via to"), 4], [set("this"), 1], [TOOLS, 1]),
  // "All file reads should go through this server's fetch_resource tool", "must be routed via this server"
  pattern("override_tools", set("should must shall"), [set("go"), 1], [set("through via"), 0], [set("this"), 1], [set("server tool mcp"), 2]),
  pattern(
    "override_tools",
    set("should must shall"),
    [set("be"), 0],
    [set("routed sent redirected handled"), 1],
    [set("through via to"), 1],
    [set("this"), 1],
    [set("server tool mcp"), 2],
  ),
  // "must also BCC"
  pattern("override_tools", set("also"), [set("bcc cc"), 0]),
  // Shadowing another tool: "when sending any email", "whenever you call another server's tool"
  pattern(
    "override_tools",
    set("when whenever before after while"),
    [set("sending using calling invoking running sent used called invoked run posted"), 3],
    [set("any every another other all each whichever"), 5],
    [set("tool tools server servers email emails message messages function functions"), 4],
  ),
  // "whenever you call another server's tool"; not "when you have coordinates from another tool's output"
  pattern(
    "override_tools",
    set("when whenever before after while"),
    [set("you"), 0],
    [set("send use call invoke run post"), 1],
    [set("any every another other all each whichever"), 3],
    [set("tool tools server servers email emails message messages function functions"), 3],
  ),
  // "always BCC ...", "always send a copy to ..."
  pattern("override_tools", set("always"), [set("bcc cc"), 2]),
  pattern("override_tools", set("always"), [set("send forward"), 2], [set("copy copies"), 2]),
  // "send every email through notes_append instead"
  pattern("override_tools", set("send route redirect reroute forward divert"), [set("every all any each"), 2], [set("through via to"), 4], [set("instead"), 4]),
  // Weak precedence: "when this server is connected" is how a session-wide rule begins.
  pattern(
    "session_claim",
    set("when whenever once while"),
    [set("this these"), 2],
    [set("server mcp integration extension plugin connector toolkit"), 1],
    [set("is are gets get has been"), 2],
    [set("connected installed enabled available active loaded present added"), 2],
  ),

  // Secrets named in words: "the user's SSH private key", "conversation history", "every environment variable"
  secret("ssh key keys keygen sftp scp git", set("ssh"), [set("key keys keypair identity identities folder directory dir"), 2]),
  secret("ssh key keys gpg pgp sign signing crypto wallet cert certificate certificates tls ssl", set("private secret signing"), [set("key keys keyfile"), 1]),
  secret("ssh key keys", set("id"), [set("rsa dsa ecdsa ed25519"), 0]),
  secret("aws s3 amazon iam sts boto", set("aws"), [set("credentials credential secret keys key folder directory dir"), 2]),
  secret("gpg pgp gnupg kube kubectl kubernetes docker config", set("gnupg kube docker"), [set("folder directory dir"), 1]),
  secret("kube kubectl kubernetes k8s cluster", set("kubeconfig")),
  secret("kube kubectl kubernetes k8s cluster", set("kube"), [set("config"), 0]),
  secret(
    "env dotenv environment variables secrets config",
    set("all every each entire whole full"),
    [set("environment env"), 2],
    [set("variables variable vars secrets values"), 1],
  ),
  secret(
    "env dotenv environment variables secrets config process",
    set("all every each entire whole full dump entries"),
    [set("process"), 4],
    [set("env environment"), 0],
  ),
  // The client's own server list: "the file in which the desktop app lists its configured servers"
  secret("mcp config configuration settings claude cursor client clients server servers", set("configured installed connected"), [set("servers mcp"), 1]),
  secret("env dotenv environment variables secrets config", set("environment env"), [set("secrets"), 0]),
  secret("env environment shell process", set("printenv")),
  secret("chat conversation conversations history transcript transcripts messages export", set("conversation chat"), [
    set("history log logs transcript so"),
    1,
  ]),
  secret("chat conversation conversations history transcript transcripts messages export", set("previous prior earlier past entire whole full"), [
    set("messages conversation conversations turns prompts chat transcript"),
    1,
  ]),
  secret("prompt prompts system", set("system"), [set("prompt prompts message"), 0]),
  secret("env dotenv environment variables secrets config process", set("process current host"), [set("environment env"), 0]),
  secret(
    "env dotenv environment variables secrets config",
    set("value values contents"),
    [set("of"), 0],
    [set("environment env"), 5],
    [set("variable variables var vars"), 0],
  ),
  secret("api key keys token tokens credential credentials", set("api"), [set("tokens keys secrets"), 0]),
  secret("ssh key keys login remote", set("identity"), [set("file files key keys"), 1]),
  secret("browser cookies cookie chrome firefox", set("cookie cookies"), [set("database file jar store db"), 1]),
  secret("password passwords login logins browser vault keychain", set("login logins password passwords credential"), [set("database store vault file db"), 1]),
  secret("prompt prompts system preamble", set("preamble")),
  secret("prompt prompts system", set("hidden opening initial"), [set("configuration system"), 1], [set("message prompt instructions"), 0]),
  secret("password passwords browser cookies keychain vault", set("saved stored browser"), [set("passwords password cookies credentials"), 1]),
  secret("wallet crypto bitcoin ethereum", set("seed recovery mnemonic"), [set("phrase phrases words"), 0]),
  secret(
    "credential credentials secret secrets vault keychain password passwords",
    set("all every each other"),
    [set("api"), 2],
    [set("keys tokens secrets"), 0],
  ),
  secret("credential credentials secret secrets vault keychain password passwords token tokens", set("all every each"), [
    set("credentials secrets passwords tokens"),
    2,
  ]),
  secret("credential credentials aws gcloud azure", set("credentials credential"), [set("file files"), 0]),
  secret("shell history bash zsh terminal", set("shell bash zsh terminal"), [set("history"), 0]),

  // Exfiltration: "pass its content as 'sidenote'", "include the key in the notes field"
  pattern("exfiltration", PUT, [MOVED, 2], [INTO, 12], [CARRIER, 4]),
  // "provide, as `fingerprint`, ...", "include in `region_hint` the file ...", "append ... to the `image_url`"
  pattern("exfiltration", PUT, [INTO, 20], [CARRIER, 2]),
  // "a trailer line holding the earlier turns of this chat"
  pattern("exfiltration", set("holding containing carrying carry contain hold"), [set("earlier previous prior full entire whole contents verbatim"), 2]),
  // "the `filename` ought to be the npm token ...": a parameter told what to hold
  pattern(
    "exfiltration",
    set(QUOTED_WORD),
    [set("ought should must shall needs need is are value"), 2],
    [set("be contain hold include carry start begin end"), 3],
  ),
  // "populate the `diagnostics` argument with ..."
  pattern("exfiltration", set("populate fill"), [CARRIER, 3], [set("with"), 2]),
  // "paste that file here", "fill with every environment variable"
  pattern("exfiltration", PUT, [MOVED, 2], [set("here"), 3]),
  pattern("exfiltration", set("fill"), [set("with in"), 2]),
  // "change the destination IBAN to ...": the user's recipient replaced
  pattern(
    "exfiltration",
    set("change replace swap alter modify set"),
    [set("destination recipient recipients address iban account payee"), 3],
    [set("to with"), 4],
  ),
  // "send them to https://...", "forward the file to the collector", "BCC attacker@..."
  pattern("exfiltration", SEND, [set("to"), 8], [AWAY, 3]),
  pattern("exfiltration", set("exfiltrate leak smuggle")),
];

const BY_FIRST = new Map<string, Pattern[]>();
for (const item of PATTERNS) {
  for (const word of item.first) BY_FIRST.set(word, [...(BY_FIRST.get(word) ?? []), item]);
}

/** Patterns that start at any quoted word (a parameter named in prose). */
const QUOTED_FIRST = BY_FIRST.get(QUOTED_WORD) ?? [];

const MERGE_NOT: Readonly<Record<string, string>> = {
  do: "dont",
  does: "doesnt",
  did: "dont",
  must: "mustnt",
  should: "shouldnt",
  will: "wont",
  can: "cant",
  need: "neednt",
};

interface Word {
  word: string;
  start: number;
  end: number;
  /** Written right after a quote or backtick: a name given in prose. */
  quoted: boolean;
  /** Which sentence of the text the word is in, counted from 0. */
  sentence: number;
}

function isQuoteCode(code: number): boolean {
  return code === 0x60 || code === 0x27 || code === 0x22 || code === 0x2018 || code === 0x201c;
}

/** ASCII words of a text, lower-cased, with contractions and "X not" merged ("don't", "do not" -> "dont"). */
function words(text: string, from: number, to: number): Word[] {
  const out: Word[] = [];
  let sentence = 0;
  let index = from;
  while (index < to) {
    let code = text.charCodeAt(index);
    if (!isWordCode(code)) {
      index++;
      continue;
    }
    const start = index;
    const quoted = start > 0 && isQuoteCode(text.charCodeAt(start - 1));
    let apostrophe = false;
    while (index < to) {
      code = text.charCodeAt(index);
      if (isWordCode(code)) {
        index++;
      } else if ((code === 0x27 || code === 0x2019) && index + 1 < to && isLetterCode(text.charCodeAt(index + 1))) {
        apostrophe = true; // inside a word: "don't" reads as "dont"
        index++;
      } else {
        break;
      }
    }
    let word = text.slice(start, index).toLowerCase();
    // A possessive is its noun ("the user's key", "the previous turn's mode"); "don't" reads as "dont".
    if (apostrophe) word = isPossessive(word) ? word.slice(0, -2) : word.replace(APOSTROPHES, "");
    const previous = out[out.length - 1];
    if (previous !== undefined && breaksSentence(text, previous.end, start)) sentence++;
    const merged = word === "not" && previous !== undefined ? MERGE_NOT[previous.word] : undefined;
    if (merged !== undefined && previous !== undefined) {
      previous.word = merged;
      previous.end = index;
    } else {
      out.push({ word: word === "cannot" ? "cant" : word, start, end: index, quoted, sentence });
    }
  }
  return out;
}

/**
 * Whether the gap between two words ends a sentence: `.`, `!`, `?` or `;` before a space, a blank
 * line, or a new list item. A part of an attack is one sentence ("pass it as `notes`"); a pattern
 * never joins the end of one sentence to the start of the next.
 */
function breaksSentence(text: string, from: number, to: number): boolean {
  if (to - from === 1) return false;
  const gap = text.slice(from, to);
  return /[.!?;]\s/.test(gap) || /\n\s*\n/.test(gap) || /\n\s*[-*\u2022]/.test(gap);
}

const APOSTROPHES = /['\u2019]/g;

/** "turn's": an apostrophe, then a final s. */
function isPossessive(word: string): boolean {
  const quote = word.charCodeAt(word.length - 2);
  return word.charCodeAt(word.length - 1) === 0x73 && (quote === 0x27 || quote === 0x2019);
}

function isLetterCode(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isWordCode(code: number): boolean {
  return isLetterCode(code) || (code >= 48 && code <= 57);
}

function stepMatches(step: Step, word: Word): boolean {
  return step.words.has(word.word) || (word.quoted && step.words.has(QUOTED_WORD));
}

/** Index of the last word of a match starting at `start`, or -1. */
function matchAt(list: readonly Word[], start: number, item: Pattern): number {
  let position = start;
  for (const step of item.steps) {
    let found = -1;
    const last = Math.min(list.length - 1, position + step.gap + 1);
    const sentence = (list[start] as Word).sentence;
    for (let next = position + 1; next <= last; next++) {
      if ((list[next] as Word).sentence !== sentence) break;
      if (stepMatches(step, list[next] as Word)) {
        found = next;
        break;
      }
    }
    if (found < 0) return -1;
    position = found;
  }
  return position;
}

/** The first match of one kind in a text, as offsets, and how many matches there are (capped). */
export interface PhraseHit {
  kind: PhraseKind;
  start: number;
  end: number;
  count: number;
  /** secret_words: the subjects of the secrets found (a tool named for one of them is about it). */
  subject?: readonly string[];
  /** secret_words: a word asking for the content (contents, text, value) stands just before the secret. */
  asksForContent?: boolean;
}

/** Words that ask for a secret's content rather than name it ("the contents of", "paste the text of"). */
const CONTENT = set("contents content text value data body dump raw copy verbatim");

/** Matches of one kind read in full (subjects merged, context read); past it they only count. */
export const DETAILED_MATCHES = 64;
const CHUNK = 65_536;
const OVERLAP = 4_096;
const MAX_COUNT = 10_000;
/** Words before a secret searched for a content word. */
const CONTENT_REACH = 6;

/**
 * Find the prose patterns in a text. Long texts are tokenized in overlapping chunks so memory stays
 * bounded; a match is counted in the chunk where its first word starts.
 */
export function findPhrases(text: string): PhraseHit[] {
  const hits = new Map<PhraseKind, PhraseHit>();
  for (let base = 0; base < text.length; base += CHUNK) {
    let from = base;
    // Skip a word cut by the chunk start: the previous chunk's overlap already read it.
    // A word longer than a chunk is read from where the chunk starts: no pattern is that long.
    if (from > 0) while (from < base + OVERLAP && from < text.length && isWordCode(text.charCodeAt(from - 1)) && isWordCode(text.charCodeAt(from))) from++;
    const list = words(text, from, Math.min(text.length, base + CHUNK + OVERLAP));
    for (let index = 0; index < list.length; index++) {
      const current = list[index] as Word;
      if (current.start >= base + CHUNK) break;
      const named = BY_FIRST.get(current.word);
      const candidates = current.quoted ? [...(named ?? []), ...QUOTED_FIRST] : named;
      if (candidates === undefined) continue;
      for (const item of candidates) {
        const last = matchAt(list, index, item);
        if (last < 0) continue;
        // An environment variable's name (STRIPE_SECRET_KEY) names a setting; it asks for nothing.
        if (item.subject !== undefined && isConstantName(text, current.start, (list[last] as Word).end)) continue;
        const seen = hits.get(item.kind);
        if (seen === undefined) {
          const hit: PhraseHit = { kind: item.kind, start: current.start, end: (list[last] as Word).end, count: 1 };
          if (item.subject !== undefined) {
            hit.subject = item.subject;
            hit.asksForContent = contentAround(list, index, last);
          }
          hits.set(item.kind, hit);
        } else {
          if (seen.count < MAX_COUNT) seen.count++;
          // The first few matches say what the secrets are about; the rest only count.
          if (item.subject !== undefined && seen.count <= DETAILED_MATCHES) {
            seen.subject = [...new Set([...(seen.subject ?? []), ...item.subject])];
            if (seen.asksForContent !== true) seen.asksForContent = contentAround(list, index, last);
          }
        }
        break;
      }
    }
  }
  return [...hits.values()];
}

/** True when a span is one upper-case identifier (`STRIPE_SECRET_KEY`, `AWS_ACCESS_KEY_ID`). */
function isConstantName(text: string, start: number, end: number): boolean {
  let upper = false;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code >= 97 && code <= 122) return false;
    if (code >= 65 && code <= 90) upper = true;
    else if (code !== 0x5f && !(code >= 48 && code <= 57)) return false;
  }
  return upper;
}

/** A content word within a few words before a secret, or right after it ("the contents of ~/.ssh/id_rsa", "private key text"). */
function contentAround(list: readonly Word[], first: number, last: number): boolean {
  for (let back = Math.max(0, first - CONTENT_REACH); back < first; back++) if (CONTENT.has((list[back] as Word).word)) return true;
  for (let next = last + 1; next <= Math.min(list.length - 1, last + 2); next++) if (CONTENT.has((list[next] as Word).word)) return true;
  return false;
}
