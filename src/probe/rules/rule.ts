/** The shape of a probe rule, what it reads (the probe records and the served tools), and the helpers the rules share. */

import type { Severity } from "../../lock/kinds.js";
import type { LintArgs, LintFinding, RuleId } from "../../lint/types.js";
import { type IdStats, idStats } from "../detect/ids.js";
import type { ToolIndex } from "../tools.js";
import type { ProbeRecord, ProbeResponse } from "../types.js";

/** Everything a probe rule may read. */
export interface ProbeContext {
  records: readonly ProbeRecord[];
  tools: ToolIndex;
}

/** Where a probe rule sends a finding about one probe; the rule ID and the probe's identity are bound by the runner. */
export interface ProbeReporter {
  (record: ProbeRecord, severity: Severity, args?: LintArgs): void;
  /** A finding about the tool a record probed, as a whole: no probe is named. */
  tool(record: ProbeRecord, severity: Severity, args?: LintArgs): void;
}

/** One probe rule, registered in `rules/index.ts`. */
export interface ProbeRule {
  readonly id: RuleId;
  check(context: ProbeContext, report: ProbeReporter): void;
}

/** A reporter that appends findings of one rule, naming the probe (label, or variant and parameter) in the finding's args. */
export function probeCollector(rule: RuleId, into: LintFinding[]): ProbeReporter {
  const push = (record: ProbeRecord, severity: Severity, args: LintArgs) => {
    into.push({ rule, severity, tool: record.probe.tool, toolIndex: record.probe.toolIndex, path: null, args });
  };
  const report = (record: ProbeRecord, severity: Severity, args: LintArgs = {}) => {
    const { probe } = record;
    const identity: LintArgs = {};
    if (probe.label !== null) identity.label = probe.label;
    if (probe.variant !== null) identity.variant = probe.variant;
    if (probe.param !== null) identity.name = probe.param;
    push(record, severity, { ...identity, ...args });
  };
  return Object.assign(report, { tool: (record: ProbeRecord, severity: Severity, args: LintArgs = {}) => push(record, severity, { ...args }) });
}

/** The response of a probe that was answered (as a result or an error) and could be read. */
export function answered(record: ProbeRecord): ProbeResponse | null {
  const { response } = record;
  return response === null || response.tooDeep ? null : response;
}

/** The response of a probe answered with a successful result. */
export function succeeded(record: ProbeRecord): ProbeResponse | null {
  return record.status === "ok" ? answered(record) : null;
}

/**
 * The response of a probe from the fixtures file (P1, P2, P3, P5 and format parity judge only
 * these): a generated error probe sends made-up arguments, and its answer's size or shape says
 * nothing about real use. With `ok`, only a successful result.
 */
export function fixtureAnswer(record: ProbeRecord, options: { ok: boolean }): ProbeResponse | null {
  if (record.probe.origin !== "fixture") return null;
  return options.ok ? succeeded(record) : answered(record);
}

const idCache = new WeakMap<ProbeRecord, IdStats>();

/** ID statistics of a successful response, computed once and shared by P2 and the score. */
export function idStatsOf(record: ProbeRecord): IdStats | null {
  const response = fixtureAnswer(record, { ok: true });
  if (response === null) return null;
  let stats = idCache.get(record);
  if (stats === undefined) {
    stats = idStats(response.text);
    idCache.set(record, stats);
  }
  return stats;
}
