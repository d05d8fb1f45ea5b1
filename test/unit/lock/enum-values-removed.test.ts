// Issue 41 item 6: a release that swaps enum values (drops some, adds others) reported only the additions;
// the removed values' structural finding shared the widening's path and was folded away.
import { describe, expect, it } from "vitest";
import { compareDefinitions } from "../../../src/lock/compare.js";
import type { Change } from "../../../src/lock/kinds.js";
import { changeMessage } from "../../../src/report/messages.js";

const tool = (status: unknown) => ({
  name: "update_ticket",
  description: "Move a ticket.",
  inputSchema: { type: "object", properties: { status }, required: ["status"] },
});
const changes = (before: unknown, after: unknown): Change[] => compareDefinitions("update_ticket", tool(before), tool(after));
const lines = (list: Change[]) => list.map((change) => `${change.severity} ${change.kind}: ${changeMessage(change)}`);

describe("enum values removed next to values added", () => {
  it("a status enum that trades `archived` for `done` gets a row for each side", () => {
    const got = changes({ type: "string", enum: ["open", "closed", "archived"] }, { type: "string", enum: ["open", "closed", "done"] });
    expect(lines(got)).toEqual([
      'error schema_widened: input schema accepts or asks for more at /inputSchema/properties/status/enum: new allowed value (value: "done")',
      'warning schema_changed: allowed value removed at /inputSchema/properties/status/enum: "archived"; a call that sends it is now refused',
    ]);
  });

  it("several values removed and several added: one row per added value, one row naming every removed value", () => {
    const got = changes({ enum: ["pick", "ours", "theirs", "resolve"] }, { enum: ["pick", "ours", "abort", "skip"] });
    expect(got.filter((c) => c.kind === "schema_widened").map((c) => c.args.detail?.value)).toEqual(['"abort"', '"skip"']);
    const removed = got.filter((c) => c.kind === "schema_changed");
    expect(lines(removed)).toEqual([
      'warning schema_changed: allowed values removed at /inputSchema/properties/status/enum: "theirs", "resolve"; a call that sends one of them is now refused',
    ]);
  });

  it("values only removed read the same way, not as an unexplained structural change", () => {
    const got = changes({ type: "string", enum: ["open", "closed", "archived"] }, { type: "string", enum: ["open", "closed"] });
    expect(lines(got)).toEqual([
      'warning schema_changed: allowed value removed at /inputSchema/properties/status/enum: "archived"; a call that sends it is now refused',
    ]);
  });

  it("a hostile removed value is shown inert", () => {
    const got = changes({ enum: ["ok", "\u202eevil\u001b[31m"] }, { enum: ["ok", "new"] });
    const text = lines(got).join("\n");
    expect(text).toContain("allowed value removed");
    expect(text).not.toContain("\u202e");
    expect(text).not.toContain("\u001b");
  });

  it("past the analyzer's cap the rest are counted on the same row", () => {
    const many = Array.from({ length: 60 }, (_, i) => `v${i}`);
    const got = changes({ enum: [...many, "keep"] }, { enum: ["keep", "fresh"] });
    const removed = got.filter((c) => c.kind === "schema_changed");
    expect(removed).toHaveLength(1);
    expect(removed[0]?.args.detail?.count).toBe(60);
    expect(changeMessage(removed[0] as Change)).toMatch(/and \d+ more; a call that sends one of them is now refused$/);
  });
});
