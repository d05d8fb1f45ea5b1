/** Shapes shared by crosscheck: the server as a client's config names it, what a client rendered, and the adapter contract. Pure. */

/** The server under test, as a client's MCP config would name it. */
export type ServerLaunch =
  | { kind: "stdio"; command: string; args: string[]; env: Record<string, string> }
  | { kind: "http"; url: string; headers: [name: string, value: string][] };

/** What the loopback model endpoint knows of a request before it reads the body: enough to tell whether it carries the run's key. */
export interface RequestHead {
  method: string;
  /** Path and query as sent (`/v1/messages?beta=true`). */
  path: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
}

/** One request a client sent to the loopback model endpoint (with the run's key: no other is read). */
export interface RecordedRequest extends RequestHead {
  /** The body parsed as JSON, or null when it was not JSON. */
  body: unknown;
}

/** What the loopback endpoint answers to one request. */
export interface RecorderReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One tool as a client renders it for its model. */
export interface RenderedTool {
  /** The name the model sees (`mcp__server__tool`). */
  name: string;
  /** The description the model reads; null when the client sent none. */
  description: string | null;
  /** The parameter schema as the client sent it (converted to its own dialect). */
  inputSchema: unknown;
  /** The result schema, for a client that shows one; undefined when the client has no such field. */
  outputSchema?: unknown;
}

/** How a client is started for one capture. */
export interface ClientLaunch {
  command: string;
  args: string[];
  /** The whole environment of the client (nothing of the user's is added). */
  env: Record<string, string>;
  cwd: string;
}

/** What an adapter is given to prepare a run. */
export interface PrepareInput {
  /** A fresh, empty folder of this run's own: the client's home, config folder and working folder go below it. */
  scratch: string;
  /** The client executable (found on PATH or given with --client-bin). */
  bin: string;
  server: ServerLaunch;
  /** The name the server is configured under (a plain identifier such as `target`). */
  serverName: string;
  /** The loopback model endpoint, `http://127.0.0.1:PORT` (no trailing slash); null for a client that calls no model. */
  modelUrl: string | null;
  /**
   * The key of this run, for the client to send as its API key: the endpoint refuses every request
   * without it. Given to the client alone (never to the server it starts); null with `modelUrl`.
   */
  modelKey: string | null;
  /** PATH and the few variables every launch keeps (the launch allowlist). */
  baseEnv: Record<string, string>;
}

/** What every client adapter has: who it is, how to start it, and how its tool names map back. */
interface ClientAdapterBase {
  /** Stable id used in flags, reports and baselines (`claude-code`). */
  id: string;
  /** Name shown to people (`Claude Code`). */
  label: string;
  /** Executable looked up on PATH. */
  bin: string;
  /** npm package and the version this adapter was tested with. */
  npmPackage: string;
  testedVersion: string;
  /** Write the client's config below `scratch` and say how to start it. */
  prepare(input: PrepareInput): Promise<ClientLaunch>;
  /** The server tool a rendered name stands for, or null when the name is not one of this server's. */
  serverToolName(rendered: string, serverName: string, serverTools: readonly string[]): string | null;
}

/**
 * A client that talks to a model. Only requests that carry the run's key where this client's API
 * puts it are read; the first of those that carries any of the server's tools is the capture.
 */
export interface ModelClientAdapter extends ClientAdapterBase {
  kind: "model";
  /** The API key a request presents, read where this client's API sends it (`x-api-key`, `Authorization: Bearer`), or null. */
  keyIn(request: RequestHead): string | null;
  /** The API's own answer to a request without a valid key (a 401 in its error shape), so a client would stop rather than retry. */
  refusal(request: RequestHead): RecorderReply;
  /** The reply to a request: whatever makes the client carry on (or stop) without a real model. */
  reply(request: RecordedRequest): RecorderReply;
  /** The server's tools this request carries, or null when it carries none of them (keep waiting). */
  toolsIn(request: RecordedRequest, serverName: string): RenderedTool[] | null;
  /**
   * Whether this is a model request that could have carried tools (a turn of the conversation, not
   * a version or quota check): a client that sent one without the server's tools, and then ended,
   * showed its model none of them.
   */
  modelRequest(request: RecordedRequest): boolean;
}

/** A client that prints the tools itself (the MCP Inspector's CLI mode). */
export interface OutputClientAdapter extends ClientAdapterBase {
  kind: "output";
  /** The tools from the client's whole standard output; throws an Error with a one-line message when it holds none. */
  parseOutput(stdout: string): RenderedTool[];
}

export type ClientAdapter = ModelClientAdapter | OutputClientAdapter;
