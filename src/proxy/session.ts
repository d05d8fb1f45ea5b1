/**
 * The forwarding core, a firewall rather than a pipe: a server message reaches the client only when
 * the proxy can say what it is (the one answer to a pending client request, a server request, a
 * notification), the answers about tools, instructions and the prompts and resources a lock pins
 * are built from the compared snapshot, every answer to a call, `prompts/get` or `resources/read`
 * is read before the client gets it (--results), and nothing either side sends can answer a request
 * on the other's behalf. Ids are kept.
 */

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import type { FailOn } from "../lock/engine.js";
import type { Lockfile } from "../lock/format.js";
import { ENTRY_SECTIONS, type EntrySection, isJsonObject, type JsonObject, type ServerSnapshot } from "../lock/snapshot.js";
import { type DropReason, type EntryCounts, logDrop, type ProxyEvent } from "./events.js";
import {
  type FixOptions,
  fixCallResult,
  fixListResult,
  fixTools,
  hasOwnPaging,
  outputSchemaOf,
  type PageRequest,
  prepareCall,
  toolError,
} from "./fixes/index.js";
import {
  type GuardVerdict,
  judge,
  judgeRead,
  type LockedHiddenText,
  notListedCallText,
  notListedPromptText,
  notListedReadText,
  pinnedSections,
  prepareGuard,
  SUBJECTS,
  serverChangeText,
  UNREAD_CALL_TEXT,
  unpinnedSections,
  withheldCallText,
  withheldTemplateReadText,
} from "./guard.js";
import { withheldKeys, withheldNotice } from "./notice.js";
import { poisoningLines, readAnswer, type ResultsMode, withheldResultText } from "./results.js";
import { connectSideClient, SideChannel } from "./side-channel.js";

/** What lock enforcement needs. */
export interface GuardSetup {
  lock: Lockfile;
  failOn: FailOn;
  /** Read the whole list through a client on the proxied session (the CLI binds readSession's bounds). */
  read: (client: Client) => Promise<ServerSnapshot>;
  /** The command the user reviews withheld entries with, as the client's notice names it (inert text). */
  review: string;
}

/** How a proxy session is wired. */
export interface ProxyOptions {
  /** Toward the MCP client (the proxy is its server). */
  client: Transport;
  /** Toward the MCP server (the proxy is its client). */
  server: Transport;
  guard: GuardSetup | null;
  fixes: FixOptions;
  report: (event: ProxyEvent) => void;
  /** mcp-lint's version, as the side reader's clientInfo. */
  version: string;
  /** How the server went away, in a few words ("exited with code 3"), when the link knows. */
  serverEnd?: () => string | null;
  /** Applied to every error text the proxy writes itself (secrets the server or a URL could carry). */
  redact?: (text: string) => string;
  /** Called with the server's initialize result before it is used (the HTTP transport needs the protocol version). */
  onInitialized?: (result: JsonObject) => void;
  /** How answers to calls, `prompts/get` and `resources/read` are read (--results); `clean` when not given. */
  results?: ResultsMode;
}

/** How a session ended. */
export type ProxyEnd = { by: "client" } | { by: "server"; error: Error | null } | { by: "failed"; error: Error };

/** A client request forwarded to the server, waiting for its one answer. */
type Pending =
  | { method: "initialize" }
  | { method: "tools/list" }
  | { method: "tools/call"; name: string; paging: PageRequest | null; outputSchema: JsonObject | null }
  | { method: "prompts/get"; name: string }
  | { method: "resources/read"; uri: string }
  | { method: "other" };

const LIST_CHANGED = "notifications/tools/list_changed";

/** The list methods a pinned section's answers are built from, with the field each answer holds. */
const SECTION_LISTS: Readonly<Record<EntrySection, { method: string; field: string; changed: string }>> = {
  prompts: { method: "prompts/list", field: "prompts", changed: "notifications/prompts/list_changed" },
  resources: { method: "resources/list", field: "resources", changed: "notifications/resources/list_changed" },
  resourceTemplates: { method: "resources/templates/list", field: "resourceTemplates", changed: "notifications/resources/list_changed" },
};

/** JSON-RPC codes of the proxy's refusals: an unknown prompt is invalid params (as the SDK answers), an unknown resource -32002 (the specification's "resource not found"). */
const INVALID_PARAMS = -32602;
const RESOURCE_NOT_FOUND = -32002;

// What the client is told when the proxy answers for a server that failed. The cause can hold server
// text (its stderr, an HTTP error body), so it goes to the proxy's log only, never to the client.
const COMPARE_FAILED = "mcp-lint: the server could not be compared with the lock, so nothing is served; the proxy's log says why";
const SERVER_GONE = "mcp-lint: the server went away before answering; the proxy's log says why";
const LIST_UNREAD = "mcp-lint: the server's tool list could not be read whole, so no tools are served until it can be; the proxy's log says why";
const ENTRIES_UNREAD = "mcp-lint: the server's lists could not be read whole, so nothing is served until they can be; the proxy's log says why";
const SEND_FAILED = "mcp-lint: the request could not be sent to the server; the proxy's log says why";
const INITIALIZED_TWICE = "mcp-lint: this session is already initialized";
const NO_DISCOVER = "Method not found: this session was opened with initialize, in the 2025 protocol, which has no server/discover";

/** MCP's log levels, least severe first: the proxy's notice is a warning, sent unless the client asked for less. */
const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** How many finished request ids are remembered, to say why a late answer is dropped. */
const RECENT_IDS = 1024;
/** Most server requests awaiting the client's answer at once; a flood past this forgets the oldest. */
const SERVER_REQUESTS = 10_000;

/** A map that forgets its oldest entries past a size: bounded memory against a flood of ids. */
class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }

  override set(key: K, value: V): this {
    this.delete(key);
    super.set(key, value);
    if (this.size > this.limit) this.delete(this.keys().next().value as K);
    return this;
  }
}

function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id?: RequestId } {
  return isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
}

function idText(id: RequestId | undefined): string {
  return id === undefined ? "(none)" : typeof id === "string" ? JSON.stringify(id) : String(id);
}

/** One proxied session, from the client's initialize to either side going away. */
export class ProxySession {
  /** Resolves once, when the session is over. */
  readonly ended: Promise<ProxyEnd>;
  private finish: (end: ProxyEnd) => void = () => {};
  private over = false;
  private initId: RequestId | null = null;
  /** Server-to-client messages held until the client has its initialize answer. */
  private beforeReady: JSONRPCMessage[] | null = [];
  /** Every client request forwarded to the server and not yet answered: the only answers passed on. */
  private readonly pending = new Map<RequestId, Pending>();
  /** Client requests no longer waiting (answered, cancelled), to say why a second answer is dropped. */
  private readonly finished = new BoundedMap<RequestId, DropReason>(RECENT_IDS);
  /** Server requests passed to the client and not yet answered: the only client answers passed on. */
  private readonly serverRequests = new BoundedMap<RequestId, true>(SERVER_REQUESTS);
  private drops = 0;
  /** Client tool requests held while the list is being read, judged once it is. */
  private held: JSONRPCRequest[] = [];
  private reading = false;
  private readAgain = false;
  /** The server's list_changed notices under the guard, passed on once the read they started is judged. */
  private readonly listChanged = new Map<string, JSONRPCNotification>();
  /** Client methods judged by the comparison (held while it runs): tools always, the rest for what the lock pins. */
  private readonly gated: ReadonlySet<string>;
  /** Server notices that start a read: tools always, prompts and resources when the lock pins them. */
  private readonly rereadOn: ReadonlySet<string>;
  /** The server's capabilities from its initialize answer, to say which sections pass unpinned. */
  private capabilities: JsonObject = {};
  private verdict: GuardVerdict | null = null;
  private readFailure: string | null = null;
  /** Tools seen in the lists so far (fix-only mode), by name: a call's paging and output schema are read from them. */
  private readonly listedTools = new Map<string, JsonObject>();
  private side: SideChannel | null = null;
  private sideClient: Client | null = null;
  /** Error-level hidden text of each locked tool, scanned while the server starts. */
  private hidden: LockedHiddenText | null = null;
  /** Set once the client has closed its input: the session ends when nothing is owed to it. */
  private draining: NodeJS.Timeout | null = null;
  private lastServerError: Error | null = null;
  /** The client's initialize while its answer waits for the first comparison. */
  private guardedInitId: RequestId | null = null;
  /** The server declared `logging` itself; otherwise the proxy answers `logging/setLevel` (it declares logging for its own notice). */
  private serverLogs = false;
  /** The level the client asked for with `logging/setLevel`, or null. */
  private logLevel: string | null = null;
  /** The client sent `notifications/initialized`: notifications may go to it. */
  private clientInitialized = false;
  /** Withheld entries the client was told of, so a re-read tells it only of new ones. */
  private notified: ReadonlySet<string> = new Set();
  /** The notice waiting for the client's `initialized`. */
  private pendingNotice: string | null = null;

  constructor(private readonly options: ProxyOptions) {
    this.ended = new Promise((resolve) => {
      this.finish = resolve;
    });
    const gated = new Set<string>();
    const rereadOn = new Set<string>();
    if (options.guard !== null) {
      gated.add("tools/list").add("tools/call");
      rereadOn.add(LIST_CHANGED);
      const pinned = pinnedSections(options.guard.lock);
      for (const section of pinned) {
        gated.add(SECTION_LISTS[section].method);
        rereadOn.add(SECTION_LISTS[section].changed);
      }
      if (pinned.includes("prompts")) gated.add("prompts/get");
      if (pinned.includes("resources") || pinned.includes("resourceTemplates")) gated.add("resources/read");
    }
    this.gated = gated;
    this.rereadOn = rereadOn;
  }

  /**
   * Scan the locked definitions now, while the server starts, so the first comparison (which the
   * client's initialize waits for) only scans what changed.
   */
  prepare(): void {
    if (this.options.guard !== null && this.hidden === null) this.hidden = prepareGuard(this.options.guard.lock);
  }

  /** Wire both transports and start them (the server's first, so the client's first message finds it running). */
  async start(): Promise<void> {
    const { client, server } = this.options;
    server.onmessage = (message) => this.fromServer(message);
    server.onclose = () => this.end({ by: "server", error: null });
    server.onerror = (error) => this.serverError(error);
    client.onmessage = (message) => this.fromClient(message);
    client.onclose = () => this.end({ by: "client" });
    client.onerror = () => {
      // A malformed line from the client is its problem; the SDK transport skips it and reads on.
    };
    await server.start();
    await client.start();
  }

  /** End the session: both transports are closed (the server's ends its process group). */
  async close(): Promise<void> {
    this.end({ by: "client" });
    await this.ended;
  }

  /**
   * The client closed its input. Requests it already sent are still answered (a client piping a
   * few requests in, then end of input, gets its answers), for up to `graceMs`; then the session ends.
   */
  clientDone(graceMs: number): void {
    if (this.over || this.draining !== null) return;
    const timer = setTimeout(() => this.end({ by: "client" }), graceMs);
    timer.unref();
    this.draining = timer;
    this.endIfIdle();
  }

  private endIfIdle(): void {
    if (this.draining === null || this.over) return;
    const busy = this.pending.size > 0 || this.held.length > 0 || this.reading || this.guardedInitId !== null;
    if (!busy) {
      clearTimeout(this.draining);
      this.end({ by: "client" });
    }
  }

  private serverError(error: Error): void {
    this.lastServerError ??= error;
  }

  private end(end: ProxyEnd): void {
    if (this.over) return;
    this.over = true;
    let final: ProxyEnd = end;
    if (end.by === "server") {
      const error = end.error ?? this.lastServerError;
      const how = [this.options.serverEnd?.() ?? null, error?.message ?? null].filter((part) => part !== null).join(": ");
      // Gone while its list was being read for the client's initialize: a failure to serve, not an ordinary end.
      final =
        this.guardedInitId !== null
          ? { by: "failed", error: new Error(`the server went away while its tool list was being read${how === "" ? "" : ` (${how})`}; nothing was served`) }
          : { by: "server", error };
    }
    // Requests still waiting get an answer, so a client is never left hanging on a dead server.
    if (final.by !== "client") {
      const waiting = [...this.pending.keys(), ...this.held.map((request) => request.id)];
      for (const id of waiting) void this.toClient(this.errorAnswer(id, SERVER_GONE));
      if (this.guardedInitId !== null) void this.toClient(this.errorAnswer(this.guardedInitId, COMPARE_FAILED));
    }
    this.guardedInitId = null;
    this.pending.clear();
    this.held = [];
    void this.sideClient?.close().catch(() => undefined);
    void Promise.allSettled([this.options.server.close(), this.options.client.close()]).then(() => this.finish(final));
  }

  // ---- client to server ------------------------------------------------------------------

  private fromClient(message: JSONRPCMessage): void {
    if (this.over) return;
    if (isJSONRPCRequest(message)) {
      this.clientRequest(message);
      return;
    }
    if (isResponse(message)) {
      // An answer to a sampling, elicitation, roots or ping request: only to one the server made.
      if (message.id === undefined || !this.serverRequests.delete(message.id)) {
        this.dropped("client", message.id, "not_requested");
        return;
      }
      this.toServer(message);
      return;
    }
    if (isJSONRPCNotification(message)) {
      // The side reader sent the session's one `initialized`; a second would confuse some servers.
      if (message.method === "notifications/initialized" && this.options.guard !== null) {
        this.clientInitialized = true;
        this.sendNotice();
        return;
      }
      if (message.method === "notifications/cancelled") {
        const requestId = (message.params as JsonObject | undefined)?.requestId as RequestId | undefined;
        const heldIndex = this.held.findIndex((request) => request.id === requestId);
        if (heldIndex >= 0) {
          // The server never saw it: nothing to cancel there.
          this.held.splice(heldIndex, 1);
          return;
        }
        if (requestId !== undefined && this.pending.delete(requestId)) this.finished.set(requestId, "cancelled");
      }
    }
    // Other notifications (cancellations, progress, roots changes) pass as sent.
    this.toServer(message);
  }

  private clientRequest(request: JSONRPCRequest): void {
    const guard = this.options.guard;
    if (request.method === "server/discover") {
      // A 2026-07-28 client's discover is answered by client-era.ts before the session sees it; one
      // that reaches the session comes after a legacy initialize, in a session of the 2025 protocol.
      void this.toClient(this.errorAnswer(request.id, NO_DISCOVER, ErrorCode.MethodNotFound));
      return;
    }
    if (request.method === "initialize") {
      // One handshake per session: a second could fetch instructions the comparison never saw.
      if (this.initId !== null) {
        void this.toClient(this.errorAnswer(request.id, INITIALIZED_TWICE));
        return;
      }
      this.initId = request.id;
      this.pending.set(request.id, { method: "initialize" });
      this.toServer(request);
      return;
    }
    if (request.method === "logging/setLevel" && guard !== null) {
      const level = isJsonObject(request.params) ? request.params.level : undefined;
      if (typeof level === "string") this.logLevel = level;
      // The proxy declared logging for its own notice; a server that did not is not asked.
      if (!this.serverLogs) {
        void this.toClient({ jsonrpc: "2.0", id: request.id, result: {} });
        return;
      }
    }
    const gated = this.gated.has(request.method);
    if (gated && (this.reading || (this.verdict === null && this.readFailure === null))) {
      this.held.push(request);
      return;
    }
    if (request.method === "tools/list") {
      if (guard === null) {
        this.pending.set(request.id, { method: "tools/list" });
        this.toServer(request);
      } else {
        this.answerList(request);
      }
      return;
    }
    if (request.method === "tools/call") {
      this.call(request);
      return;
    }
    const section = gated ? ENTRY_SECTIONS.find(({ section }) => SECTION_LISTS[section].method === request.method)?.section : undefined;
    if (section !== undefined) {
      this.answerSection(request, section);
      return;
    }
    const params = isJsonObject(request.params) ? request.params : {};
    if (request.method === "prompts/get") {
      const name = typeof params.name === "string" ? params.name : "";
      if (gated && this.refusedPrompt(request.id, name)) return;
      this.pending.set(request.id, { method: "prompts/get", name });
      this.toServer(request);
      return;
    }
    if (request.method === "resources/read") {
      const uri = typeof params.uri === "string" ? params.uri : "";
      if (gated && this.refusedRead(request.id, uri)) return;
      this.pending.set(request.id, { method: "resources/read", uri });
      this.toServer(request);
      return;
    }
    this.pending.set(request.id, { method: "other" });
    this.toServer(request);
  }

  /** prompts/list, resources/list or resources/templates/list under a lock that pins them: answered from the last comparison, whole. */
  private answerSection(request: JSONRPCRequest, section: EntrySection): void {
    const verdict = this.verdict?.entries[section];
    if (verdict === undefined || verdict === null) {
      void this.toClient(this.errorAnswer(request.id, ENTRIES_UNREAD));
      return;
    }
    void this.toClient({ jsonrpc: "2.0", id: request.id, result: { [SECTION_LISTS[section].field]: verdict.served } });
  }

  /** Refuse a prompts/get the comparison does not serve (answered here, logged); false to forward it. */
  private refusedPrompt(id: RequestId, name: string): boolean {
    const prompts = this.verdict?.entries.prompts;
    if (prompts === undefined || prompts === null) {
      void this.toClient(this.errorAnswer(id, ENTRIES_UNREAD));
      return true;
    }
    if (prompts.keys.has(name)) return false;
    const withheld = prompts.withheld.get(name);
    this.options.report({ event: "call_refused", tool: name, subject: "prompt", kinds: withheld?.kinds ?? ["not_listed"] });
    void this.toClient(this.errorAnswer(id, withheld === undefined ? notListedPromptText(name) : withheldCallText(withheld), INVALID_PARAMS));
    return true;
  }

  /** Refuse a resources/read that judgeRead does not allow (answered here, logged); false to forward it. */
  private refusedRead(id: RequestId, uri: string): boolean {
    if (this.verdict === null) {
      void this.toClient(this.errorAnswer(id, ENTRIES_UNREAD));
      return true;
    }
    const judgement = judgeRead(this.verdict.entries, uri);
    if (judgement.allowed) return false;
    const entry = judgement.withheld;
    if (entry === null) {
      this.options.report({ event: "call_refused", tool: uri, subject: "resource", kinds: ["not_listed"] });
      void this.toClient(this.errorAnswer(id, notListedReadText(uri), RESOURCE_NOT_FOUND));
    } else if (entry.subject === "resource template") {
      this.options.report({ event: "call_refused", tool: uri, subject: "resource", template: entry.tool, kinds: entry.kinds });
      void this.toClient(this.errorAnswer(id, withheldTemplateReadText(uri, entry), RESOURCE_NOT_FOUND));
    } else {
      this.options.report({ event: "call_refused", tool: uri, subject: "resource", kinds: entry.kinds });
      void this.toClient(this.errorAnswer(id, withheldCallText(entry), RESOURCE_NOT_FOUND));
    }
    return true;
  }

  /** tools/list under the guard: answered from the last comparison, so the client sees exactly what was compared. */
  private answerList(request: JSONRPCRequest): void {
    if (this.verdict === null) {
      void this.toClient(this.errorAnswer(request.id, LIST_UNREAD));
      return;
    }
    const tools = fixTools(this.verdict.tools, this.options.fixes);
    void this.toClient({ jsonrpc: "2.0", id: request.id, result: { tools } });
  }

  private call(request: JSONRPCRequest): void {
    const params = isJsonObject(request.params) ? request.params : {};
    const name = typeof params.name === "string" ? params.name : "";
    const guard = this.options.guard;
    let tool = this.listedTools.get(name);
    if (guard !== null) {
      const refusal = this.refusal(name);
      if (refusal !== null) {
        void this.toClient({ jsonrpc: "2.0", id: request.id, result: toolError(refusal) });
        return;
      }
      tool = this.verdict?.tools.find((served) => served.name === name);
    }
    const prepared = prepareCall(params, this.options.fixes, tool !== undefined && hasOwnPaging(tool));
    if ("error" in prepared) {
      void this.toClient({ jsonrpc: "2.0", id: request.id, result: toolError(prepared.error) });
      return;
    }
    // A page must still fit the tool's output schema; a tool the client called without listing it has none known.
    this.pending.set(request.id, { method: "tools/call", name, paging: prepared.paging, outputSchema: outputSchemaOf(tool) });
    this.toServer(prepared.params === params ? request : { ...request, params: prepared.params });
  }

  /** Why a call must not reach the server under the guard, or null to forward it. */
  private refusal(name: string): string | null {
    if (this.verdict === null) return UNREAD_CALL_TEXT;
    const withheld = this.verdict.withheld.get(name);
    if (withheld !== undefined) {
      this.options.report({ event: "call_refused", tool: name, kinds: withheld.kinds });
      return withheldCallText(withheld);
    }
    if (!this.verdict.served.has(name)) {
      this.options.report({ event: "call_refused", tool: name, kinds: ["not_listed"] });
      return notListedCallText(name);
    }
    return null;
  }

  // ---- server to client ------------------------------------------------------------------

  private fromServer(message: JSONRPCMessage): void {
    if (this.over) return;
    if (isResponse(message)) {
      const side = this.side?.take(message) ?? "other";
      if (side === "taken") return;
      if (side === "stale") {
        this.dropped("server", message.id, "not_waiting");
        return;
      }
      // Only the first answer to a request the client made and still waits for passes: a second
      // initialize answer, or answers to requests the proxy holds or answered itself, never do.
      const id = message.id;
      const pending = id === undefined ? undefined : this.pending.get(id);
      if (id === undefined || pending === undefined) {
        this.dropped("server", id, (id === undefined ? undefined : this.finished.get(id)) ?? "not_requested");
        return;
      }
      this.pending.delete(id);
      this.finished.set(id, "already_answered");
      this.answered(pending, id, message);
      return;
    }
    if (isJSONRPCNotification(message)) {
      if (this.rereadOn.has(message.method)) {
        this.listChanged.set(message.method, message);
        this.startRead("list_changed");
        return;
      }
      if (message.method === "notifications/cancelled") {
        const requestId = (message.params as JsonObject | undefined)?.requestId as RequestId | undefined;
        if (requestId !== undefined) this.serverRequests.delete(requestId);
      }
    } else if (isJSONRPCRequest(message)) {
      this.serverRequests.set(message.id, true);
    }
    // Server requests (sampling, elicitation, roots, ping) and notifications (progress, logging,
    // resource updates, cancellations) pass as sent, once the client has its initialize answer.
    if (this.beforeReady !== null) this.beforeReady.push(message);
    else void this.toClient(message);
  }

  /** A response that answers nothing waiting: dropped, and logged (a flood only at powers of ten). */
  private dropped(from: "server" | "client", id: RequestId | undefined, why: DropReason): void {
    this.drops += 1;
    if (logDrop(this.drops)) this.options.report({ event: "response_dropped", from, id: idText(id), why, total: this.drops });
  }

  private answered(pending: Pending, id: RequestId, sent: JSONRPCMessage): void {
    const message = this.readResult(pending, id, sent);
    if (message === null) return;
    if (!isJSONRPCResultResponse(message)) {
      if (pending.method === "initialize" && this.options.guard !== null) {
        // Under the guard the initialize answer is the proxy's own, an error too: the server's text stays in the log.
        const error = (message as { error?: { message?: unknown } }).error;
        const text = typeof error?.message === "string" ? error.message : "no message";
        this.failInitialize(id, new Error(`the server answered initialize with an error: ${text}`));
        return;
      }
      if (pending.method === "initialize") {
        void this.toClient(message).then(() => this.ready());
        return;
      }
      void this.toClient(message);
      return;
    }
    const result = message.result as JsonObject;
    if (pending.method === "initialize") {
      this.options.onInitialized?.(result);
      if (this.options.guard === null) {
        void this.toClient(message).then(() => this.ready());
      } else {
        void this.initializeGuarded(id, result);
      }
      return;
    }
    if (pending.method === "other" || pending.method === "prompts/get" || pending.method === "resources/read") {
      void this.toClient(message);
      return;
    }
    if (pending.method === "tools/list") {
      const tools = Array.isArray(result.tools) ? result.tools : [];
      for (const tool of tools) if (isJsonObject(tool) && typeof tool.name === "string") this.listedTools.set(tool.name, tool);
      void this.toClient({ ...message, result: fixListResult(result, this.options.fixes) });
      return;
    }
    // A result that asks the client for input (MCP 2026-07-28, passed only to a client of that revision) is no answer to fix.
    const incomplete = result.resultType !== undefined && result.resultType !== "complete";
    if (incomplete || (pending.paging === null && !this.options.fixes.errors)) void this.toClient(message);
    else void this.toClient({ ...message, result: fixCallResult(result, this.options.fixes, pending.paging, pending.outputSchema) });
  }

  /**
   * Read the answer to a call, a prompts/get or a resources/read before the client does
   * (results.ts): hidden text removed and logged, poisoning logged, and under `strict` a poisoned
   * answer replaced by the proxy's own refusal. Returns the message to pass on, or null when the
   * refusal was sent instead. Other answers pass as they are.
   */
  private readResult(pending: Pending, id: RequestId, message: JSONRPCMessage): JSONRPCMessage | null {
    const mode = this.options.results ?? "clean";
    if (mode === "off" || (pending.method !== "tools/call" && pending.method !== "prompts/get" && pending.method !== "resources/read")) return message;
    const source =
      pending.method === "tools/call"
        ? { tool: pending.name }
        : pending.method === "prompts/get"
          ? { tool: pending.name, subject: "prompt" as const }
          : { tool: pending.uri, subject: "resource" as const };
    const result = isJSONRPCResultResponse(message);
    const body: unknown = result ? message.result : (message as { error?: unknown }).error;
    const reading = readAnswer(body, true);
    if (reading.removed.length > 0) this.options.report({ event: "result_cleaned", ...source, removed: reading.removed });
    if (reading.poisoning.length > 0) {
      const withhold = mode === "strict";
      this.options.report({ event: "result_poisoned", ...source, findings: poisoningLines(reading.poisoning), withheld: withhold });
      if (withhold) {
        const text = withheldResultText(source, reading.poisoning);
        void this.toClient(
          pending.method === "tools/call" ? { jsonrpc: "2.0", id, result: toolError(text) } : this.errorAnswer(id, text, ErrorCode.InternalError),
        );
        return null;
      }
    }
    if (reading.value === body) return message;
    return result ? { ...message, result: reading.value as JsonObject } : ({ ...message, error: reading.value } as JSONRPCMessage);
  }

  /**
   * The server answered initialize: read and compare the whole list through the side reader
   * before the client gets its answer. A list that cannot be read whole fails the client's
   * initialize and ends the session: nothing is served partially.
   */
  private async initializeGuarded(id: RequestId, result: JsonObject): Promise<void> {
    this.guardedInitId = id;
    this.capabilities = isJsonObject(result.capabilities) ? result.capabilities : {};
    this.serverLogs = isJsonObject(this.capabilities.logging);
    try {
      this.side = new SideChannel(result, (message) => this.options.server.send(message));
      this.sideClient = await connectSideClient(this.side, this.options.version);
    } catch (error) {
      this.failInitialize(id, error);
      return;
    }
    this.reading = true;
    const failure = await this.compare("initialize");
    if (failure !== null) {
      this.failInitialize(id, failure);
      return;
    }
    const verdict = this.verdict as GuardVerdict;
    const notice = this.noticeOf(verdict, "initialize");
    const answer = this.guardedAnswer(result, verdict, notice);
    if (this.over) return;
    this.guardedInitId = null;
    await this.toClient({ jsonrpc: "2.0", id, result: answer });
    this.ready();
    this.releaseHeld();
  }

  /**
   * The initialize answer under the guard, built from what was compared rather than passed through:
   * the server's protocol version and capabilities, `serverInfo` as the comparison read it (name and
   * version; fields the lock does not record are left out), and the instructions the verdict serves,
   * with the proxy's notice of what it withholds appended as a line of its own. `logging` is declared
   * whatever the server declares: the notice is also sent as a warning, now or after a list_changed.
   */
  private guardedAnswer(result: JsonObject, verdict: GuardVerdict, notice: string | null): JsonObject {
    const info = this.sideClient?.getServerVersion();
    const serverInfo: JsonObject = { name: info?.name ?? "", version: info?.version ?? "" };
    const capabilities: JsonObject = { ...this.capabilities };
    if (!this.serverLogs) capabilities.logging = {};
    const answer: JsonObject = { protocolVersion: result.protocolVersion ?? null, capabilities, serverInfo };
    const instructions = [verdict.instructions.text, notice].filter((text): text is string => text !== null);
    if (instructions.length > 0) answer.instructions = instructions.filter((text) => text !== "").join("\n\n");
    return answer;
  }

  /**
   * The notice of what a verdict withholds that the client was not yet told of: logged, kept for the
   * client's warning, and returned (null when nothing new is withheld). The line names everything
   * withheld, so the newest warning says the whole of it.
   */
  private noticeOf(verdict: GuardVerdict, trigger: "initialize" | "list_changed"): string | null {
    const keys = withheldKeys(verdict);
    const fresh = [...keys].some((key) => !this.notified.has(key));
    this.notified = new Set([...this.notified, ...keys]);
    if (!fresh) return null;
    const notice = withheldNotice(verdict, (this.options.guard as GuardSetup).review);
    if (notice === null) return null;
    this.options.report({ event: "withheld_notice", trigger, text: notice.text });
    this.pendingNotice = notice.text;
    return notice.text;
  }

  /** Send the waiting notice as a warning once the client is initialized, unless it asked for errors only. */
  private sendNotice(): void {
    const text = this.pendingNotice;
    if (text === null || !this.clientInitialized || this.over) return;
    this.pendingNotice = null;
    const asked = this.logLevel === null ? -1 : LOG_LEVELS.indexOf(this.logLevel);
    if (asked > LOG_LEVELS.indexOf("warning")) return;
    void this.toClient({ jsonrpc: "2.0", method: "notifications/message", params: { level: "warning", logger: "mcp-lint", data: text } });
  }

  private failInitialize(id: RequestId, error: unknown): void {
    if (this.over) return;
    this.guardedInitId = null;
    const failure = error instanceof Error ? error : new Error(String(error));
    void this.toClient(this.errorAnswer(id, COMPARE_FAILED)).finally(() => this.end({ by: "failed", error: failure }));
  }

  /** The client has its initialize answer: pass what the server sent meanwhile. */
  private ready(): void {
    const queued = this.beforeReady ?? [];
    this.beforeReady = null;
    for (const message of queued) void this.toClient(message);
  }

  /** A list_changed: read again (once more if another arrives meanwhile), then judge held calls and tell the client. */
  private startRead(trigger: "list_changed"): void {
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = true;
    void this.compare(trigger).then(() => {
      if (this.verdict !== null && !this.over) {
        this.noticeOf(this.verdict, trigger);
        this.sendNotice();
      }
      this.releaseHeld();
      // One notice of each kind, however many arrived during the read (a storm is passed on as one).
      const notices = [...this.listChanged.values()];
      this.listChanged.clear();
      for (const notice of this.over ? [] : notices) {
        if (this.beforeReady !== null) this.beforeReady.push(notice);
        else void this.toClient(notice);
      }
    });
  }

  /**
   * Read the whole list and judge it, again while list_changed arrives during a read. Returns the
   * failure, or null. After a failure under list_changed no tool is served until a read succeeds.
   */
  private async compare(trigger: "initialize" | "list_changed"): Promise<Error | null> {
    const guard = this.options.guard as GuardSetup;
    let failure: Error | null = null;
    do {
      this.readAgain = false;
      const started = performance.now();
      try {
        const snapshot = await guard.read(this.sideClient as Client);
        const verdict = judge(guard.lock, snapshot, guard.failOn, this.hidden);
        this.verdict = verdict;
        this.readFailure = null;
        failure = null;
        this.reportVerdict(verdict, trigger, Math.round(performance.now() - started));
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error));
        this.verdict = null;
        this.readFailure = failure.message;
        if (!this.over) this.options.report({ event: "read_failed", trigger, message: failure.message });
        if (trigger === "initialize") break;
      }
    } while (this.readAgain && !this.over);
    this.reading = false;
    return failure;
  }

  private reportVerdict(verdict: GuardVerdict, trigger: "initialize" | "list_changed", ms: number): void {
    const report = this.options.report;
    const entries: EntryCounts[] = [];
    for (const { section } of ENTRY_SECTIONS) {
      const judged = verdict.entries[section];
      if (judged !== null) entries.push({ what: SUBJECTS[section], listed: judged.listed, served: judged.served.length, withheld: judged.withheld.size });
    }
    report({
      event: "compared",
      trigger,
      listed: verdict.listed,
      served: verdict.tools.length,
      withheld: verdict.withheld.size,
      changes: verdict.changes.length,
      ...(entries.length > 0 ? { entries } : {}),
      instructions: verdict.instructions.served,
      ms,
    });
    const guard = this.options.guard as GuardSetup;
    // Said once a session: what passes unchecked does not change with a re-read.
    const unpinned = trigger === "initialize" ? unpinnedSections(guard.lock, this.capabilities) : [];
    if (unpinned.length > 0) report({ event: "not_pinned", what: unpinned.map((section) => SUBJECTS[section]), lockVersion: guard.lock.version });
    if (verdict.anotherServer !== null) report({ event: "another_server", ...verdict.anotherServer });
    // Reported once a session, like the instructions: a re-read on list_changed compares the same launch again.
    if (trigger === "initialize") {
      const serverChanges = verdict.changes.filter((change) => change.kind === "server_changed").map((change) => serverChangeText(change));
      if (serverChanges.length > 0) report({ event: "server_changed", what: serverChanges });
    }
    for (const entry of verdict.withheld.values()) report({ event: "withheld", tool: entry.tool, kinds: entry.kinds, severity: entry.severity });
    for (const { section } of ENTRY_SECTIONS) {
      for (const entry of verdict.entries[section]?.withheld.values() ?? []) {
        report({ event: "withheld", tool: entry.tool, subject: SUBJECTS[section], kinds: entry.kinds, severity: entry.severity });
      }
    }
    // Instructions reach the client only in the initialize answer; a later change is for the next session.
    if (trigger === "initialize" && verdict.instructions.served !== "as_sent") {
      report({ event: "instructions_replaced", served: verdict.instructions.served, kinds: verdict.instructions.kinds });
    }
  }

  private releaseHeld(): void {
    const held = this.held;
    this.held = [];
    for (const request of held) this.clientRequest(request);
  }

  // ---- sending ---------------------------------------------------------------------------

  private errorAnswer(id: RequestId, message: string, code: number = ErrorCode.InternalError): JSONRPCMessage {
    return errorAnswer(id, this.options.redact?.(message) ?? message, code);
  }

  private toServer(message: JSONRPCMessage): void {
    this.options.server.send(message).catch((error: unknown) => {
      // A stdio server that is gone closes its transport, which ends the session; an HTTP request
      // can fail on its own, and only that request gets the error.
      if (!isJSONRPCRequest(message) || this.over) return;
      if (!this.pending.delete(message.id)) return;
      this.finished.set(message.id, "already_answered");
      const text = error instanceof Error ? error.message : String(error);
      this.options.report({ event: "send_failed", method: message.method, message: text });
      void this.toClient(this.errorAnswer(message.id, SEND_FAILED));
    });
  }

  private toClient(message: JSONRPCMessage): Promise<void> {
    return this.options.client.send(message).then(
      () => this.endIfIdle(),
      () => this.end({ by: "client" }),
    );
  }
}

/** A JSON-RPC error answer from the proxy itself. */
function errorAnswer(id: RequestId, message: string, code: number = ErrorCode.InternalError): JSONRPCMessage {
  return { jsonrpc: "2.0", id, error: { code, message } };
}
