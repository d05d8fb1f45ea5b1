/**
 * The forwarding core: JSON-RPC messages pass between the client's transport and the server's
 * unchanged, ids kept, except what the guard and the fixes intercept.
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
import { isJsonObject, type JsonObject, type ServerSnapshot } from "../lock/snapshot.js";
import type { ProxyEvent } from "./events.js";
import { type FixOptions, fixCallResult, fixListResult, fixTools, hasOwnPaging, type PageRequest, prepareCall, toolError } from "./fixes/index.js";
import { type GuardVerdict, judge, type LockedHiddenText, prepareGuard, type ReviewCommands, withheldCallText } from "./guard.js";
import { connectSideClient, SideChannel } from "./side-channel.js";

/** What lock enforcement needs. */
export interface GuardSetup {
  lock: Lockfile;
  failOn: FailOn;
  review: ReviewCommands;
  /** Read the whole list through a client on the proxied session (the CLI binds readSession's bounds). */
  read: (client: Client) => Promise<ServerSnapshot>;
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
}

/** How a session ended. */
export type ProxyEnd = { by: "client" } | { by: "server"; error: Error | null } | { by: "failed"; error: Error };

/** A client request forwarded to the server whose answer the proxy looks at. */
type Pending = { method: "initialize" } | { method: "tools/list" } | { method: "tools/call"; paging: PageRequest | null };

const LIST_CHANGED = "notifications/tools/list_changed";

/** One proxied session, from the client's initialize to either side going away. */
export class ProxySession {
  /** Resolves once, when the session is over. */
  readonly ended: Promise<ProxyEnd>;
  private finish: (end: ProxyEnd) => void = () => {};
  private over = false;
  private initId: RequestId | null = null;
  /** Server-to-client messages held until the client has its initialize answer. */
  private beforeReady: JSONRPCMessage[] | null = [];
  private readonly pending = new Map<RequestId, Pending>();
  /** Client tool requests held while the list is being read, judged once it is. */
  private held: JSONRPCRequest[] = [];
  private reading = false;
  private readAgain = false;
  private listChanged: JSONRPCNotification | null = null;
  private verdict: GuardVerdict | null = null;
  private readFailure: string | null = null;
  /** Tools seen in the last list (fix-only mode): name to "has its own paging". */
  private readonly toolPaging = new Map<string, boolean>();
  private side: SideChannel | null = null;
  private sideClient: Client | null = null;
  /** Error-level hidden text of each locked tool, scanned while the server starts. */
  private hidden: LockedHiddenText | null = null;
  /** Set once the client has closed its input: the session ends when nothing is owed to it. */
  private draining: NodeJS.Timeout | null = null;
  private lastServerError: Error | null = null;
  /** The client's initialize while its answer waits for the first comparison. */
  private guardedInitId: RequestId | null = null;

  constructor(private readonly options: ProxyOptions) {
    this.ended = new Promise((resolve) => {
      this.finish = resolve;
    });
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
      const why = `mcp-lint: ${final.error?.message ?? "the server went away"}`;
      const waiting = [...this.pending.keys(), ...this.held.map((request) => request.id)];
      if (this.guardedInitId !== null) waiting.push(this.guardedInitId);
      for (const id of waiting) void this.toClient(this.errorAnswer(id, why));
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
    if (isJSONRPCNotification(message)) {
      // The side reader sent the session's one `initialized`; a second would confuse some servers.
      if (message.method === "notifications/initialized" && this.options.guard !== null) return;
      if (message.method === "notifications/cancelled") {
        const requestId = (message.params as JsonObject | undefined)?.requestId as RequestId | undefined;
        const heldIndex = this.held.findIndex((request) => request.id === requestId);
        if (heldIndex >= 0) {
          // The server never saw it: nothing to cancel there.
          this.held.splice(heldIndex, 1);
          return;
        }
        if (requestId !== undefined) this.pending.delete(requestId);
      }
    }
    // Notifications and answers to the server's own requests (sampling, elicitation, roots) pass as sent.
    this.toServer(message);
  }

  private clientRequest(request: JSONRPCRequest): void {
    const guard = this.options.guard;
    if (request.method === "initialize" && this.initId === null) {
      this.initId = request.id;
      this.pending.set(request.id, { method: "initialize" });
      this.toServer(request);
      return;
    }
    const tools = request.method === "tools/list" || request.method === "tools/call";
    if (tools && (this.reading || (guard !== null && this.verdict === null && this.readFailure === null))) {
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
    this.toServer(request);
  }

  /** tools/list under the guard: answered from the last comparison, so the client sees exactly what was compared. */
  private answerList(request: JSONRPCRequest): void {
    if (this.verdict === null) {
      void this.toClient(this.errorAnswer(request.id, `mcp-lint: ${this.readFailure ?? "the tool list has not been read"}`));
      return;
    }
    const tools = fixTools(this.verdict.tools, this.options.fixes);
    void this.toClient({ jsonrpc: "2.0", id: request.id, result: { tools } });
  }

  private call(request: JSONRPCRequest): void {
    const params = isJsonObject(request.params) ? request.params : {};
    const name = typeof params.name === "string" ? params.name : "";
    const guard = this.options.guard;
    let pagesItself = this.toolPaging.get(name) ?? false;
    if (guard !== null) {
      const refusal = this.refusal(name, guard.review);
      if (refusal !== null) {
        void this.toClient({ jsonrpc: "2.0", id: request.id, result: toolError(refusal) });
        return;
      }
      const tool = this.verdict?.tools.find((served) => served.name === name);
      pagesItself = tool !== undefined && hasOwnPaging(tool);
    }
    const prepared = prepareCall(params, this.options.fixes, pagesItself);
    if ("error" in prepared) {
      void this.toClient({ jsonrpc: "2.0", id: request.id, result: toolError(prepared.error) });
      return;
    }
    // Nothing to do with the answer: it passes without being tracked.
    if (prepared.paging !== null || this.options.fixes.errors) this.pending.set(request.id, { method: "tools/call", paging: prepared.paging });
    this.toServer(prepared.params === params ? request : { ...request, params: prepared.params });
  }

  /** Why a call must not reach the server under the guard, or null to forward it. */
  private refusal(name: string, review: ReviewCommands): string | null {
    if (this.verdict === null) {
      return `mcp-lint did not send this call: the server's tool list could not be read whole (${this.readFailure ?? "not read"}), so no tool is served until it can be.`;
    }
    const withheld = this.verdict.withheld.get(name);
    if (withheld !== undefined) {
      this.options.report({ event: "call_refused", tool: name, kinds: withheld.kinds });
      return withheldCallText(withheld, review);
    }
    if (!this.verdict.served.has(name)) {
      this.options.report({ event: "call_refused", tool: name, kinds: ["not_listed"] });
      return `mcp-lint did not send this call: the server does not list a tool named ${JSON.stringify(name)}, and only listed, locked tools are served.`;
    }
    return null;
  }

  // ---- server to client ------------------------------------------------------------------

  private fromServer(message: JSONRPCMessage): void {
    if (this.over) return;
    if (this.side?.take(message) === true) return;
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      const id = message.id as RequestId;
      const pending = this.pending.get(id);
      if (pending !== undefined) {
        this.pending.delete(id);
        this.answered(pending, message);
        return;
      }
      void this.toClient(message);
      return;
    }
    if (isJSONRPCNotification(message) && message.method === LIST_CHANGED && this.options.guard !== null) {
      this.listChanged = message;
      this.startRead("list_changed");
      return;
    }
    // Server requests (sampling, elicitation, roots, ping) and notifications (progress, logging,
    // resource updates, cancellations) pass as sent, once the client has its initialize answer.
    if (this.beforeReady !== null) this.beforeReady.push(message);
    else void this.toClient(message);
  }

  private answered(pending: Pending, message: JSONRPCMessage): void {
    if (!isJSONRPCResultResponse(message)) {
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
        void this.initializeGuarded(message.id, result);
      }
      return;
    }
    if (pending.method === "tools/list") {
      const tools = Array.isArray(result.tools) ? result.tools : [];
      for (const tool of tools) if (isJsonObject(tool) && typeof tool.name === "string") this.toolPaging.set(tool.name, hasOwnPaging(tool));
      void this.toClient({ ...message, result: fixListResult(result, this.options.fixes) });
      return;
    }
    void this.toClient({ ...message, result: fixCallResult(result, this.options.fixes, pending.paging) });
  }

  /**
   * The server answered initialize: read and compare the whole list through the side reader
   * before the client gets its answer. A list that cannot be read whole fails the client's
   * initialize and ends the session: nothing is served partially.
   */
  private async initializeGuarded(id: RequestId, result: JsonObject): Promise<void> {
    this.guardedInitId = id;
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
    const answer: JsonObject = { ...result };
    if (verdict.instructions.served !== "as_sent") {
      if (verdict.instructions.text === null) delete answer.instructions;
      else answer.instructions = verdict.instructions.text;
    }
    if (this.over) return;
    this.guardedInitId = null;
    await this.toClient({ jsonrpc: "2.0", id, result: answer });
    this.ready();
    this.releaseHeld();
  }

  private failInitialize(id: RequestId, error: unknown): void {
    if (this.over) return;
    this.guardedInitId = null;
    const failure = error instanceof Error ? error : new Error(String(error));
    void this.toClient(this.errorAnswer(id, `mcp-lint: ${failure.message}`)).finally(() => this.end({ by: "failed", error: failure }));
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
      this.releaseHeld();
      const notice = this.listChanged;
      this.listChanged = null;
      if (notice !== null && !this.over) {
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
    report({
      event: "compared",
      trigger,
      listed: verdict.listed,
      served: verdict.tools.length,
      withheld: verdict.withheld.size,
      changes: verdict.changes.length,
      instructions: verdict.instructions.served,
      ms,
    });
    for (const entry of verdict.withheld.values()) report({ event: "withheld", tool: entry.tool, kinds: entry.kinds, severity: entry.severity });
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

  private errorAnswer(id: RequestId, message: string): JSONRPCMessage {
    return errorAnswer(id, this.options.redact?.(message) ?? message);
  }

  private toServer(message: JSONRPCMessage): void {
    this.options.server.send(message).catch((error: unknown) => {
      // A stdio server that is gone closes its transport, which ends the session; an HTTP request
      // can fail on its own, and only that request gets the error.
      if (!isJSONRPCRequest(message) || this.over) return;
      this.pending.delete(message.id);
      const text = error instanceof Error ? error.message : String(error);
      void this.toClient(this.errorAnswer(message.id, `mcp-lint: the request could not be sent to the server: ${text}`));
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
function errorAnswer(id: RequestId, message: string): JSONRPCMessage {
  return { jsonrpc: "2.0", id, error: { code: ErrorCode.InternalError, message } };
}
