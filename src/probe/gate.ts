/**
 * The safety gate: decides, before anything is sent, which probes are called. Only tools that say
 * `readOnlyHint: true` run without `allow_destructive`; arguments must pass the tool's own input
 * schema unless the probe expects an error; unknown tools and unset variables hold a probe back.
 * On a 2026-07-28 session over HTTP it also builds each call's `Mcp-Param-*` headers, and holds
 * back a tool whose `x-mcp-header` declarations a client must refuse and a call that would put a
 * credential into a header, as the proxy does.
 * Pure: the runner calls exactly what this returns with `action: "call"`.
 */

import { callHeaders, PARAM_HEADER_PREFIX, type ParamHeader, type ParamHeaderPolicy, scanParamHeaders } from "../connect/param-headers.js";
import { type JsonObject, ownField } from "../lock/snapshot.js";
import { checkArguments } from "./arguments.js";
import { errorProbesFor } from "./error-probes.js";
import { expandArguments } from "./fixtures.js";
import { allReadOnly, indexTools } from "./tools.js";
import type { BlockReason, FixturesFile, PlannedProbe, ProbeFixture } from "./types.js";

/** What the gate needs. */
export interface GateInput {
  /** The fixtures file, or null with `--error-probes` alone. */
  fixtures: FixturesFile | null;
  /** The served tools, exactly as listed. */
  tools: readonly JsonObject[];
  /** Where `${NAME}` is looked up. */
  env: Readonly<Record<string, string | undefined>>;
  /** Also generate error probes for every read-only tool. */
  errorProbes: boolean;
  /** Set when calls carry `Mcp-Param-*` headers (2026-07-28 over HTTP); absent or null elsewhere. */
  paramHeaders?: ParamHeaderPolicy | null;
}

/** Plan every probe: fixtures in file order, then error probes in tool list order. */
export function planProbes(input: GateInput): PlannedProbe[] {
  const index = indexTools(input.tools);
  const plan: PlannedProbe[] = [];
  for (const fixture of input.fixtures?.probes ?? []) {
    plan.push(planFixture(fixture, input.fixtures?.dir ?? ".", index, input, plan.length));
  }
  if (input.errorProbes) {
    for (const name of index.names) {
      const copies = index.copies(name);
      // Error probes are never destructive: only tools every copy of which says readOnlyHint: true.
      if (!allReadOnly(copies)) continue;
      const declarations = declarationsOf(copies, input.paramHeaders);
      for (const probe of errorProbesFor(copies[0] as JsonObject)) {
        const generated: PlannedProbe = {
          order: plan.length,
          tool: name,
          toolIndex: index.firstIndex(name),
          label: null,
          origin: "error_probe",
          variant: probe.variant,
          param: probe.param,
          expectError: true,
          args: probe.args,
          argNames: Object.keys(probe.args),
          argValues: stringsIn(probe.args),
          headers: {},
          action: "call",
          blocked: null,
        };
        plan.push(withHeaders(generated, declarations, input.paramHeaders));
      }
    }
  }
  return plan;
}

/**
 * The same probe judged again against a newer tool list (the server sent list_changed mid-run): a
 * fixture goes through the whole gate again; an error probe runs only if its tool still says
 * read-only and the same bad argument still applies to its new schema.
 */
export function regateProbe(probe: PlannedProbe, input: GateInput): PlannedProbe {
  const index = indexTools(input.tools);
  if (probe.origin === "fixture") {
    const fixture = input.fixtures?.probes.find((candidate) => candidate.index === probe.order);
    if (fixture === undefined) return { ...probe, action: "blocked", args: null, blocked: { code: "no_longer_applies" } };
    return planFixture(fixture, input.fixtures?.dir ?? ".", index, input, probe.order);
  }
  const copies = index.copies(probe.tool);
  const held = (blocked: BlockReason): PlannedProbe => ({ ...probe, toolIndex: index.firstIndex(probe.tool), action: "blocked", args: null, blocked });
  if (copies.length === 0) return held({ code: "unknown_tool" });
  if (!allReadOnly(copies)) return held({ code: "not_read_only" });
  const same = errorProbesFor(copies[0] as JsonObject).find((candidate) => candidate.variant === probe.variant && candidate.param === probe.param);
  if (same === undefined) return held({ code: "no_longer_applies" });
  const again: PlannedProbe = {
    ...probe,
    toolIndex: index.firstIndex(probe.tool),
    args: same.args,
    argNames: Object.keys(same.args),
    argValues: stringsIn(same.args),
    headers: {},
  };
  return withHeaders(again, declarationsOf(copies, input.paramHeaders), input.paramHeaders);
}

function planFixture(
  fixture: ProbeFixture,
  dir: string,
  index: ReturnType<typeof indexTools>,
  input: Pick<GateInput, "env" | "paramHeaders">,
  order: number,
): PlannedProbe {
  const base: PlannedProbe = {
    order,
    tool: fixture.tool,
    toolIndex: index.firstIndex(fixture.tool),
    label: fixture.label,
    origin: "fixture",
    variant: null,
    param: null,
    expectError: fixture.expectError,
    args: null,
    argNames: Object.keys(fixture.args),
    argValues: [],
    headers: {},
    action: "blocked",
    blocked: null,
  };
  const block = (reason: BlockReason): PlannedProbe => ({ ...base, blocked: reason });
  if (fixture.skip) return { ...base, action: "skipped" };
  const copies = index.copies(fixture.tool);
  if (copies.length === 0) return block({ code: "unknown_tool" });
  // A tool a client of the revision must leave out is, to that client, not served at all.
  const declarations = declarationsOf(copies, input.paramHeaders);
  if ("blocked" in declarations) return block(declarations.blocked);
  // The safety check comes before anything else and nothing skips it, expect_error included.
  if (!allReadOnly(copies) && !fixture.allowDestructive) return block({ code: "not_read_only" });
  const expanded = expandArguments(fixture.args, dir, input.env);
  if (!expanded.ok) return block({ code: "missing_variable", name: expanded.missing });
  if (!fixture.expectError) {
    // Every copy must accept the arguments: a client could send them to either.
    for (const copy of copies) {
      const check = checkArguments(copy.inputSchema, expanded.args);
      if (check.ok === "unusable") return block({ code: "schema_unusable", detail: check.detail });
      if (check.ok === false) return block({ code: "invalid_arguments", problems: check.problems });
    }
  }
  return withHeaders({ ...base, action: "call", args: expanded.args, argValues: expanded.strings }, declarations, input.paramHeaders);
}

/** Every copy's `x-mcp-header` declarations (a client could send the call to any), or why a client must leave the tool out. */
type Declarations = { declared: ParamHeader[] } | { blocked: BlockReason };

function declarationsOf(copies: readonly JsonObject[], policy: ParamHeaderPolicy | null | undefined): Declarations {
  if (policy === null || policy === undefined) return { declared: [] };
  const declared: ParamHeader[] = [];
  for (const copy of copies) {
    const scan = scanParamHeaders(ownField(copy, "inputSchema"));
    if (!scan.valid) return { blocked: { code: "invalid_param_headers", why: scan.why, header: scan.header } };
    declared.push(...scan.headers);
  }
  return { declared };
}

/**
 * A probe the gate would call, with the `Mcp-Param-*` headers of its arguments; held back when its
 * tool's declarations are invalid or a value bound for a header has a credential's form (the
 * header is named, the value never kept).
 */
function withHeaders(probe: PlannedProbe, declarations: Declarations, policy: ParamHeaderPolicy | null | undefined): PlannedProbe {
  if (probe.action !== "call" || probe.args === null || policy === null || policy === undefined) return probe;
  const held = (blocked: BlockReason): PlannedProbe => ({ ...probe, action: "blocked", args: null, argValues: [], headers: {}, blocked });
  if ("blocked" in declarations) return held(declarations.blocked);
  const built = callHeaders(declarations.declared, probe.args, policy.knownSecret);
  if ("refused" in built) return held({ code: "credential_in_header", header: `${PARAM_HEADER_PREFIX}${built.refused.name}` });
  return { ...probe, headers: built.headers };
}

/** String values anywhere in generated arguments (they are small and flat). */
function stringsIn(args: JsonObject): string[] {
  const out: string[] = [];
  for (const value of Object.values(args)) {
    if (typeof value === "string") out.push(value);
    else if (Array.isArray(value)) for (const item of value) if (typeof item === "string") out.push(item);
  }
  return out;
}
