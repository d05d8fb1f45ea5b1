// Property test of the safety gate, end to end through the real runner and SDK client: over generated
// fixtures files and annotation mixes, (1) no tool lacking `readOnlyHint: true` is ever called unless a
// probe of it says `allow_destructive`, and (2) no call with arguments its schema rejects reaches the
// server unless a probe of it says `expect_error` (or it is a generated error probe, read-only tools
// only). The server records every call it receives; validity is judged by a separate ajv instance.
// The same holds when the server replaces its tools (list_changed) in the middle of a run.
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeRedactor } from "../../../src/text/redact.js";
import type { JsonObject } from "../../../src/lock/snapshot.js";
import { expandArguments } from "../../../src/probe/fixtures.js";
import { planProbes, regateProbe } from "../../../src/probe/gate.js";
import { runProbes, sdkProbeLink } from "../../../src/probe/runner.js";
import type { FixturesFile, ProbeFixture } from "../../../src/probe/types.js";
import { type ReceivedCall, startRecordingServer } from "../../fixtures/servers/probe/recording.js";

const judge = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
const validCache = new Map<string, ReturnType<typeof judge.compile>>();
function valid(schema: JsonObject, args: unknown): boolean {
  const key = JSON.stringify(schema);
  let validate = validCache.get(key);
  if (validate === undefined) {
    validate = judge.compile(schema);
    validCache.set(key, validate);
  }
  return validate(args) === true;
}

const ENV = { SET_VAR: "from-the-environment" };
const DIR = "/fixtures/dir";
const NAMES = ["t0", "t1", "t2", "t3"];
const PROPS = ["path", "count", "flag", "mode", "tags"];

// Every annotation shape a server sends: only the first is read-only.
const annotations = fc.constantFrom<unknown>(
  { readOnlyHint: true },
  { readOnlyHint: true, destructiveHint: true },
  undefined,
  {},
  { readOnlyHint: false },
  { destructiveHint: false },
  { readOnlyHint: "true" },
  { readOnlyHint: 1 },
  { readOnlyHint: null },
  "read-only",
);

const propertySchemas: Record<string, JsonObject> = {
  path: { type: "string" },
  count: { type: "integer", minimum: 0 },
  flag: { type: "boolean" },
  mode: { type: "string", enum: ["fast", "slow"] },
  tags: { type: "array", items: { type: "string" } },
};

const inputSchema = fc
  .record({
    props: fc.subarray(PROPS, { minLength: 0 }),
    requiredMask: fc.array(fc.boolean(), { minLength: PROPS.length, maxLength: PROPS.length }),
    closed: fc.boolean(),
    pattern: fc.boolean(),
  })
  .map(({ props, requiredMask, closed, pattern }) => {
    const properties: JsonObject = {};
    for (const prop of props) properties[prop] = propertySchemas[prop] as JsonObject;
    if (pattern && props.includes("path")) properties.path = { type: "string", pattern: "^/" };
    const schema: JsonObject = { type: "object", properties, required: props.filter((_, index) => requiredMask[index]) };
    if (closed) schema.additionalProperties = false;
    return schema;
  });

const tool = fc.record({ name: fc.constantFrom(...NAMES), annotations, inputSchema }).map(({ name, annotations: hints, inputSchema: schema }) => {
  const definition: JsonObject = { name, description: `Tool ${name}.`, inputSchema: schema };
  if (hints !== undefined) definition.annotations = hints;
  return definition;
});

// For the mid-run property: mostly read-only tools, so that many calls are sent before and after the change.
const mostlyReadOnly = fc
  .record({ tool, readOnly: fc.integer({ min: 0, max: 3 }) })
  .map(({ tool: definition, readOnly }) => (readOnly > 0 ? { ...definition, annotations: { readOnlyHint: true } } : definition));

const value = fc.oneof(
  fc.constantFrom<unknown>("/abs/path", "relative", "${FIXTURES_DIR}/file.txt", "${SET_VAR}", "${UNSET_VAR_FOR_TEST}", "fast", "slow", "other"),
  fc.integer({ min: -3, max: 5 }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.constantFrom<unknown>("a", 1, "${SET_VAR}"), { maxLength: 2 }),
);

const fixture = fc.record({
  tool: fc.constantFrom(...NAMES, "unknown_tool"),
  args: fc.dictionary(fc.constantFrom(...PROPS, "extra"), value, { maxKeys: 4 }),
  expectError: fc.boolean(),
  allowDestructive: fc.boolean(),
  skip: fc.boolean(),
});

/** How often each interesting case reached the server, so a property is known not to hold vacuously. */
type Seen = { calls: number; destructiveAllowed: number; invalidExpected: number; errorProbes: number };

/** Checks one call the server received against the definitions it served when the call was sent. */
function judgeCall(call: ReceivedCall, tools: readonly JsonObject[], probes: readonly ProbeFixture[], errorProbes: boolean, seen: Seen): void {
  const copies = tools.filter((definition) => definition.name === call.name);
  expect(copies.length, `a call to a tool the server does not serve: ${call.name}`).toBeGreaterThan(0);
  const readOnly = copies.every((copy) => (copy.annotations as JsonObject | undefined)?.readOnlyHint === true);
  const argsValid = copies.every((copy) => valid(copy.inputSchema as JsonObject, call.args));
  // The fixture probes this call could be: same tool, not skipped, same arguments once expanded.
  const sources = probes.filter((probe) => {
    if (probe.skip || probe.tool !== call.name) return false;
    const expanded = expandArguments(probe.args, DIR, ENV);
    return expanded.ok && JSON.stringify(expanded.args) === JSON.stringify(call.args);
  });
  const fromErrorProbes = errorProbes && readOnly;
  seen.calls++;
  if (!readOnly) seen.destructiveAllowed++;
  if (!argsValid) seen.invalidExpected++;
  if (sources.length === 0) seen.errorProbes++;
  if (!readOnly) {
    expect(
      sources.some((probe) => probe.allowDestructive),
      `${call.name} is not read-only and no probe allowed it`,
    ).toBe(true);
  }
  if (!argsValid) {
    expect(
      fromErrorProbes || sources.some((probe) => probe.expectError && (readOnly || probe.allowDestructive)),
      `invalid arguments reached ${call.name}: ${JSON.stringify(call.args)}`,
    ).toBe(true);
  }
  if (sources.length === 0) expect(fromErrorProbes, `a call no probe asked for: ${JSON.stringify(call)}`).toBe(true);
}

const fixturesOf = (entries: readonly { tool: string; args: unknown; expectError: boolean; allowDestructive: boolean; skip: boolean }[]): ProbeFixture[] =>
  entries.map((entry, index) => ({ ...entry, index, label: null, args: entry.args as JsonObject }));

describe("the safety gate, over generated fixtures and annotation mixes", () => {
  const seen: Seen = { calls: 0, destructiveAllowed: 0, invalidExpected: 0, errorProbes: 0 };

  it("never calls a tool without readOnlyHint: true unless allowed, and never sends invalid arguments unless an error is expected", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(tool, { minLength: 1, maxLength: 5 }),
        fc.array(fixture, { minLength: 0, maxLength: 8 }),
        fc.boolean(),
        async (tools, entries, errorProbes) => {
          const probes = fixturesOf(entries);
          const fixtures: FixturesFile = { probes, dir: DIR };
          const server = await startRecordingServer(tools);
          try {
            const plan = planProbes({ fixtures, tools, env: ENV, errorProbes });
            await runProbes(plan, sdkProbeLink(server.session), { timeoutMs: 5_000, redactor: makeRedactor([]) });
          } finally {
            await server.close();
          }
          for (const call of server.calls) judgeCall(call, tools, probes, errorProbes, seen);
        },
      ),
      { numRuns: 300 },
    );
    expect(seen.calls).toBeGreaterThan(100);
    expect(seen.destructiveAllowed).toBeGreaterThan(5);
    expect(seen.invalidExpected).toBeGreaterThan(5);
    expect(seen.errorProbes).toBeGreaterThan(5);
  });

  it("holds when the server changes its tools mid-run: every call is judged by the definitions served when it was sent", async () => {
    const changed = { runs: 0, callsAfter: 0 };
    const mid: Seen = { calls: 0, destructiveAllowed: 0, invalidExpected: 0, errorProbes: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(mostlyReadOnly, { minLength: 1, maxLength: 5 }),
        fc.array(fc.oneof(mostlyReadOnly, tool), { minLength: 0, maxLength: 5 }),
        fc.integer({ min: 1, max: 3 }),
        fc.array(fixture, { minLength: 1, maxLength: 8 }),
        fc.constant(true),
        async (tools, replaced, changeAt, entries, errorProbes) => {
          // (400 runs below: a change lands before later calls in about one run in ten.)
          const probes = fixturesOf(entries);
          const fixtures: FixturesFile = { probes, dir: DIR };
          // The list each received call was sent against: the server changes it while answering call `changeAt`.
          const listAt: (readonly JsonObject[])[] = [];
          let current: readonly JsonObject[] = tools;
          let change: ((next: readonly JsonObject[]) => Promise<void>) | null = null;
          const server = await startRecordingServer(tools, async (name) => {
            listAt.push(current);
            if (listAt.length === changeAt && change !== null) {
              current = replaced;
              await change(replaced);
            }
            return { content: [{ type: "text", text: `called ${name}` }] };
          });
          change = server.change;
          try {
            const plan = planProbes({ fixtures, tools, env: ENV, errorProbes });
            await runProbes(plan, sdkProbeLink(server.session), {
              timeoutMs: 5_000,
              redactor: makeRedactor([]),
              regate: (probe, latest) => regateProbe(probe, { fixtures, tools: latest, env: ENV, errorProbes }),
            });
          } finally {
            await server.close();
          }
          if (server.calls.length > changeAt) {
            changed.runs++;
            changed.callsAfter += server.calls.length - changeAt;
          }
          for (const [index, call] of server.calls.entries()) judgeCall(call, listAt[index] ?? tools, probes, errorProbes, mid);
        },
      ),
      { numRuns: 400, seed: 20261201 },
    );
    // The change really happened before later calls in enough runs.
    // With this seed: 33 runs, 53 calls after a change.
    expect(changed.runs).toBeGreaterThan(25);
    expect(changed.callsAfter).toBeGreaterThan(40);
  });
});
