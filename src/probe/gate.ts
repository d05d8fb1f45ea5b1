/**
 * The safety gate: decides, before anything is sent, which probes are called. Only tools that say
 * `readOnlyHint: true` run without `allow_destructive`; arguments must pass the tool's own input
 * schema unless the probe expects an error; unknown tools and unset variables hold a probe back.
 * Pure: the runner calls exactly what this returns with `action: "call"`.
 */

import type { JsonObject } from "../lock/snapshot.js";
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
}

/** Plan every probe: fixtures in file order, then error probes in tool list order. */
export function planProbes(input: GateInput): PlannedProbe[] {
  const index = indexTools(input.tools);
  const plan: PlannedProbe[] = [];
  for (const fixture of input.fixtures?.probes ?? []) {
    plan.push(planFixture(fixture, input.fixtures?.dir ?? ".", index, input.env, plan.length));
  }
  if (input.errorProbes) {
    for (const name of index.names) {
      const copies = index.copies(name);
      // Error probes are never destructive: only tools every copy of which says readOnlyHint: true.
      if (!allReadOnly(copies)) continue;
      for (const probe of errorProbesFor(copies[0] as JsonObject)) {
        plan.push({
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
          action: "call",
          blocked: null,
        });
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
    return planFixture(fixture, input.fixtures?.dir ?? ".", index, input.env, probe.order);
  }
  const copies = index.copies(probe.tool);
  const held = (blocked: BlockReason): PlannedProbe => ({ ...probe, toolIndex: index.firstIndex(probe.tool), action: "blocked", args: null, blocked });
  if (copies.length === 0) return held({ code: "unknown_tool" });
  if (!allReadOnly(copies)) return held({ code: "not_read_only" });
  const same = errorProbesFor(copies[0] as JsonObject).find((candidate) => candidate.variant === probe.variant && candidate.param === probe.param);
  if (same === undefined) return held({ code: "no_longer_applies" });
  return { ...probe, toolIndex: index.firstIndex(probe.tool), args: same.args, argNames: Object.keys(same.args), argValues: stringsIn(same.args) };
}

function planFixture(
  fixture: ProbeFixture,
  dir: string,
  index: ReturnType<typeof indexTools>,
  env: Readonly<Record<string, string | undefined>>,
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
    action: "blocked",
    blocked: null,
  };
  const block = (reason: BlockReason): PlannedProbe => ({ ...base, blocked: reason });
  if (fixture.skip) return { ...base, action: "skipped" };
  const copies = index.copies(fixture.tool);
  if (copies.length === 0) return block({ code: "unknown_tool" });
  // The safety check comes before anything else and nothing skips it, expect_error included.
  if (!allReadOnly(copies) && !fixture.allowDestructive) return block({ code: "not_read_only" });
  const expanded = expandArguments(fixture.args, dir, env);
  if (!expanded.ok) return block({ code: "missing_variable", name: expanded.missing });
  if (!fixture.expectError) {
    // Every copy must accept the arguments: a client could send them to either.
    for (const copy of copies) {
      const check = checkArguments(copy.inputSchema, expanded.args);
      if (check.ok === "unusable") return block({ code: "schema_unusable", detail: check.detail });
      if (check.ok === false) return block({ code: "invalid_arguments", problems: check.problems });
    }
  }
  return { ...base, action: "call", args: expanded.args, argValues: expanded.strings };
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
