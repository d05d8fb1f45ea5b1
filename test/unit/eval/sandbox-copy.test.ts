// The sandbox of one eval run is a copy, never a door (src/eval/sandbox-copy.ts, issue 42): a
// sandbox that is a link, or holds a link that leads outside it or nowhere, or anything but files,
// folders and links, is refused with the rest of one line; a link that stays inside is copied as it
// is written, and a copy that would lead back out is refused before the agent works in it.
import { mkdirSync, mkdtempSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { copySandbox, sandboxProblem } from "../../../src/eval/sandbox-copy.js";

const root = mkdtempSync(join(tmpdir(), "mcp-lint-eval-copy-"));
let count = 0;
/** A small sandbox: a file, a folder with a file, and an outside file beside it. */
function sandbox(): { dir: string; outside: string } {
  const base = join(root, `case-${++count}`);
  const dir = join(base, "sandbox");
  mkdirSync(join(dir, "notes"), { recursive: true });
  writeFileSync(join(dir, "README.md"), "readme\n");
  writeFileSync(join(dir, "notes", "a.md"), "a\n");
  const outside = join(base, "outside.txt");
  writeFileSync(outside, "outside\n");
  return { dir, outside };
}

describe("sandboxProblem", () => {
  it("a folder of files and folders passes, and so does a relative link that stays inside", async () => {
    const { dir } = sandbox();
    symlinkSync("../README.md", join(dir, "notes", "readme.md"));
    symlinkSync("notes", join(dir, "notes-link"));
    expect(await sandboxProblem(dir)).toBeNull();
  });

  it("a sandbox that is a link is refused", async () => {
    const { dir } = sandbox();
    const link = join(dir, "..", "linked");
    symlinkSync(dir, link);
    expect(await sandboxProblem(link)).toBe("is a symbolic link: a run would work in the folder it leads to");
  });

  it("an absolute link is refused, even to a file inside (a copy would lead back to the sandbox)", async () => {
    const { dir, outside } = sandbox();
    symlinkSync(outside, join(dir, "memory.jsonl"));
    expect(await sandboxProblem(dir)).toBe(`holds memory.jsonl, a link to the absolute path ${outside}`);
    const inside = sandbox();
    symlinkSync(join(inside.dir, "README.md"), join(inside.dir, "notes", "abs.md"));
    expect(await sandboxProblem(inside.dir)).toBe(`holds ${join("notes", "abs.md")}, a link to the absolute path ${join(inside.dir, "README.md")}`);
  });

  it("a relative link that climbs out is refused, through another link too", async () => {
    const { dir, outside } = sandbox();
    symlinkSync("../../outside.txt", join(dir, "notes", "out.md"));
    expect(await sandboxProblem(dir)).toBe(`holds ${join("notes", "out.md")}, a link that leads outside it (to ${outside})`);
    // `up` leads to the sandbox itself; `up/..` is then outside, though the text stays inside.
    const second = sandbox();
    mkdirSync(join(second.dir, "deep", "er"), { recursive: true });
    symlinkSync("../..", join(second.dir, "deep", "er", "up"));
    symlinkSync("deep/er/up/../outside.txt", join(second.dir, "sneaky"));
    expect(await sandboxProblem(second.dir)).toBe(`holds sneaky, a link that leads outside it (to ${second.outside})`);
  });

  it("a link that leads nowhere is refused: a write through it would make a file wherever it points", async () => {
    const { dir } = sandbox();
    symlinkSync("missing/file", join(dir, "dangling"));
    expect(await sandboxProblem(dir)).toBe("holds dangling, a link that leads nowhere (missing/file)");
  });

  it("a socket (anything but a file, a folder or a link) is refused", async () => {
    const { dir } = sandbox();
    const server = createServer();
    await new Promise<void>((done) => server.listen(join(dir, "notes", "sock"), done));
    try {
      expect(await sandboxProblem(dir)).toBe(`holds ${join("notes", "sock")}, which is neither a file, a folder nor a link`);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it("a missing sandbox says so", async () => {
    expect(await sandboxProblem(join(root, "none"))).toBe("does not exist");
  });
});

describe("copySandbox", () => {
  it("copies files and keeps an inside link as it is written, leading inside the copy", async () => {
    const { dir } = sandbox();
    symlinkSync("../README.md", join(dir, "notes", "readme.md"));
    const copy = join(root, `copy-${++count}`);
    await copySandbox(dir, copy);
    expect(readlinkSync(join(copy, "notes", "readme.md"))).toBe("../README.md");
    expect(await sandboxProblem(copy)).toBeNull();
  });

  it("a copy that would lead back out (an absolute link into the sandbox) stops the run before the agent starts", async () => {
    const { dir } = sandbox();
    symlinkSync(join(dir, "README.md"), join(dir, "abs.md"));
    const copy = join(root, `copy-${++count}`);
    await expect(copySandbox(dir, copy)).rejects.toThrow(
      `eval --run: the run's copy of the sandbox ${dir} holds abs.md, a link to the absolute path ${join(dir, "README.md")}; the sandbox changed during the run, so the run stopped before the agent started`,
    );
  });
});
