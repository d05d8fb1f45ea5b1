// bin.ts: the bin npx would run from a package.json, kept inside the package, and the argv that starts it.
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { chooseBin, launchArgv } from "../../../src/artifact/bin.js";
import { ArtifactInstallError } from "../../../src/errors.js";

const dir = resolve("/cache/tree/node_modules/pkg");

describe("chooseBin", () => {
  it.each([
    ["a string bin is named after the package", { name: "srv", bin: "cli.js" }, "srv", null, "cli.js"],
    ["a scoped string bin", { name: "@s/srv", bin: "./bin/cli.js" }, "@s/srv", null, "bin/cli.js"],
    ["the only bin, whatever its name", { name: "srv", bin: { other: "o.js" } }, "srv", null, "o.js"],
    ["several names for one file count as one", { name: "srv", bin: { a: "x.js", b: "./x.js" } }, "srv", null, "x.js"],
    ["the bin named like the package", { name: "srv", bin: { helper: "h.js", srv: "s.js" } }, "srv", null, "s.js"],
    ["the bin named like the package without its scope", { name: "@s/srv", bin: { helper: "h.js", srv: "s.js" } }, "@s/srv", null, "s.js"],
    ["the bin asked for wins over the package's own name", { name: "srv", bin: { helper: "h.js", srv: "s.js" } }, "srv", "helper", "h.js"],
    ["a bin asked for among several files", { name: "srv", bin: { a: "a.js", b: "b.js" } }, "srv", "b", "b.js"],
    ["an array bin is named after each file", { name: "srv", bin: ["bin/srv.js"] }, "srv", "srv.js", "bin/srv.js"],
    ["a package.json without a name uses the package's", { bin: "cli.js" }, "srv", "srv", "cli.js"],
  ])("%s", (_, pkgJson, name, binName, expected) => {
    expect(chooseBin(pkgJson, name, binName, dir)).toBe(join(dir, expected));
  });

  it.each([
    ["no bin at all", { name: "srv" }, null, /^srv has no bin to run$/],
    ["a bin field that is not a bin", { name: "srv", bin: 42 }, null, /^srv has no bin to run$/],
    ["a package.json that is not an object", "nonsense", null, /^srv has no bin to run$/],
    ["a bin asked for that is not there", { name: "srv", bin: { a: "a.js", b: "b.js" } }, "c", /^srv has no bin named c; its bins: a, b$/],
    ["several bins, none named like the package", { name: "srv", bin: { b: "b.js", a: "a.js" } }, null, /none is named like the package; choose one of: a, b$/],
  ])("refuses %s", (_, pkgJson, binName, message) => {
    expect(() => chooseBin(pkgJson, "srv", binName, dir)).toThrow(ArtifactInstallError);
    expect(() => chooseBin(pkgJson, "srv", binName, dir)).toThrow(message);
  });

  it.each([
    ["a target climbing out", "../../../../etc/passwd"],
    ["an absolute target", "/etc/passwd"],
    ["a backslashed climb", "..\\..\\x.js"],
    ["a climb after a folder", "bin/../../other/x.js"],
  ])("keeps %s inside the package folder", (_, target) => {
    const file = chooseBin({ name: "srv", bin: { srv: target } }, "srv", null, dir);
    expect(file.startsWith(`${dir}/`)).toBe(true);
  });

  it("refuses a bin that resolves to the package folder itself", () => {
    expect(() => chooseBin({ name: "srv", bin: { srv: "." } }, "srv", null, dir)).toThrow(/no bin to run|outside its own folder/);
  });

  it("shows hostile bin names inert and caps a long list", () => {
    const bins = Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`b${String(index).padStart(2, "0")}\u001b[2J`, `${index}.js`]));
    let message = "";
    try {
      chooseBin({ name: "srv", bin: bins }, "srv", null, dir);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("b00\\u{1B}[2J");
    expect(message).not.toContain("\u001b");
    expect(message).toMatch(/and 10 more$/);
  });
});

describe("launchArgv", () => {
  const node = "/opt/node/bin/node";
  it.each([
    ["an env node shebang", "/p/cli", "#!/usr/bin/env node\nrequire('x')", [node, "/p/cli", "--flag"]],
    ["a direct node shebang", "/p/cli", "#!/usr/local/bin/node\n", [node, "/p/cli", "--flag"]],
    ["env -S with node flags", "/p/cli", "#!/usr/bin/env -S node --no-warnings\n", [node, "--no-warnings", "/p/cli", "--flag"]],
    ["a CRLF shebang", "/p/cli", "#!/usr/bin/env node\r\n", [node, "/p/cli", "--flag"]],
    ["a .js file without a shebang", "/p/cli.js", "'use strict'", [node, "/p/cli.js", "--flag"]],
    ["a .mjs file", "/p/cli.mjs", "import x from 'y'", [node, "/p/cli.mjs", "--flag"]],
    ["a .cjs file", "/p/cli.CJS", "", [node, "/p/cli.CJS", "--flag"]],
    ["a shell script", "/p/cli.sh", "#!/bin/sh\nexec x", ["/p/cli.sh", "--flag"]],
    ["a .js file whose shebang runs something else", "/p/cli.js", "#!/usr/bin/env bun\n", ["/p/cli.js", "--flag"]],
    ["a native program", "/p/server", "\u007fELF\u0002\u0001", ["/p/server", "--flag"]],
  ])("%s", (_, bin, head, expected) => {
    expect(launchArgv(bin, ["--flag"], head, node)).toEqual(expected);
  });
});
