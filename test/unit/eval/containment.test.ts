// What `eval --run` does where its servers cannot get a PID namespace (src/eval/containment.ts,
// issue 42): with a model credential set it refuses, in one line, unless --allow-uncontained; else
// it says so in one warning line that names what a server can read.
import { describe, expect, it } from "vitest";
import { uncontainedDecision } from "../../../src/eval/containment.js";

const WHY = "util-linux unshare is not on PATH";

describe("uncontainedDecision", () => {
  it("a credential set: refused, naming it and the flag that accepts it", () => {
    expect(uncontainedDecision(WHY, ["ANTHROPIC_API_KEY"], false)).toEqual({
      refuse:
        "eval --run: the servers would start without a PID namespace here (util-linux unshare is not on PATH), so a server could read ANTHROPIC_API_KEY from the agent's process; run where util-linux unshare can make one, or pass --allow-uncontained to accept that; nothing was run",
    });
    expect(uncontainedDecision(WHY, ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"], false)).toMatchObject({
      refuse: expect.stringContaining("could read ANTHROPIC_API_KEY and ANTHROPIC_AUTH_TOKEN from"),
    });
  });

  it("with --allow-uncontained: one warning line that names what is exposed", () => {
    expect(uncontainedDecision(WHY, ["ANTHROPIC_API_KEY"], true)).toEqual({
      warn: "mcp-lint: warning: eval --run: the servers start without a PID namespace here (util-linux unshare is not on PATH); a server can read the agent's environment, ANTHROPIC_API_KEY included (--allow-uncontained)\n",
    });
  });

  it("no credential set: one warning line, no refusal", () => {
    expect(uncontainedDecision(WHY, [], false)).toEqual({
      warn: "mcp-lint: warning: eval --run: the servers start without a PID namespace here (util-linux unshare is not on PATH); a server can read the agent's environment (no model credential is set)\n",
    });
  });
});
