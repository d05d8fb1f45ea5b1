// Shared by the probe unit tests: a planned probe with every field at its plain value.
import type { PlannedProbe } from "../../../src/probe/types.js";

/** A probe of `tool` that is called as planned, with `fields` overriding the defaults. */
export function planned(tool: string, fields: Partial<PlannedProbe> = {}): PlannedProbe {
  return {
    order: 0,
    tool,
    toolIndex: 0,
    label: null,
    origin: "fixture",
    variant: null,
    param: null,
    expectError: false,
    args: {},
    argNames: [],
    argValues: [],
    headers: {},
    action: "call",
    blocked: null,
    ...fields,
  };
}
