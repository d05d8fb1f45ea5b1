// readTextIfExists decodes a large file as Node reads it (no bytes buffer left behind), and must
// stay exactly as strict as the byte-checked path: invalid UTF-8 named at its offset, a real
// U+FFFD kept, one leading BOM dropped.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readTextIfExists } from "../../../src/lock/io.js";

const dir = mkdtempSync(join(tmpdir(), "mcp-lint-io-"));
/** Two megabytes of ASCII, past the size read the large-file way. */
const filler = "x".repeat(2 * 1024 * 1024);

function file(name: string, bytes: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

describe("readTextIfExists on a large file", () => {
  it("reads plain text whole, without a leading BOM", async () => {
    expect(await readTextIfExists(file("plain.json", Buffer.from(`"${filler}"`)))).toBe(`"${filler}"`);
    expect(await readTextIfExists(file("bom.json", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`"${filler}"`)])))).toBe(`"${filler}"`);
  });

  it("names an invalid byte at its offset, as for a small file", async () => {
    const path = file("bad.json", Buffer.concat([Buffer.from(filler), Buffer.from([0xff]), Buffer.from("tail")]));
    await expect(readTextIfExists(path)).rejects.toThrow(
      `${path}: invalid UTF-8 at byte offset ${filler.length}: byte 0xff cannot start a character; save the file as UTF-8`,
    );
  });

  it("keeps a real U+FFFD and drops one leading BOM", async () => {
    const path = file("fffd.json", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${filler}\uFFFD`, "utf8")]));
    const text = await readTextIfExists(path);
    expect(text?.length).toBe(filler.length + 1);
    expect(text?.endsWith("\uFFFD")).toBe(true);
    expect(text?.charCodeAt(0)).toBe(0x78);
  });

  it("is null for a missing file", async () => {
    expect(await readTextIfExists(join(dir, "missing.json"))).toBeNull();
  });
});
