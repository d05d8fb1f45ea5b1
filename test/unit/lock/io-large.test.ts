// readTextIfExists decodes a large file as Node reads it (no bytes buffer left behind), and must
// stay exactly as strict as the byte-checked path: invalid UTF-8 named at its offset, a real
// U+FFFD kept, one leading BOM dropped.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readTextIfExists, readTextPiecesIfExists } from "../../../src/lock/io.js";

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

describe("readTextPiecesIfExists", () => {
  it("gives a large file as pieces that join to its text, a character cut between two reads included", async () => {
    // "é" (two bytes) and "😀" (four) straddle the first 1 MiB read.
    const text = `${"x".repeat(1024 * 1024 - 1)}\u00e9${"y".repeat(1024 * 1024 - 2)}\u{1f600}tail`;
    const pieces = await readTextPiecesIfExists(file("pieces.json", Buffer.from(text, "utf8")));
    expect(pieces?.length).toBeGreaterThan(1);
    expect(pieces?.join("")).toBe(text);
  });

  it("drops one leading BOM, is null for a missing file, and gives a small file as one piece", async () => {
    expect((await readTextPiecesIfExists(file("bom-pieces.json", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(filler)]))))?.join("")).toBe(
      filler,
    );
    expect(await readTextPiecesIfExists(join(dir, "missing.json"))).toBeNull();
    expect(await readTextPiecesIfExists(file("small.json", Buffer.from("[1]")))).toEqual(["[1]"]);
  });

  it("is as strict as readTextIfExists: an invalid byte named at its offset (even the file's last), a real U+FFFD kept", async () => {
    const bad = file("bad-pieces.json", Buffer.concat([Buffer.from(filler), Buffer.from([0xff]), Buffer.from("tail")]));
    await expect(readTextPiecesIfExists(bad)).rejects.toThrow(`${bad}: invalid UTF-8 at byte offset ${filler.length}`);
    const cutShort = file("cut-pieces.json", Buffer.concat([Buffer.from(filler), Buffer.from([0xe2, 0x82])]));
    await expect(readTextPiecesIfExists(cutShort)).rejects.toThrow(`${cutShort}: invalid UTF-8 at byte offset ${filler.length}`);
    const real = await readTextPiecesIfExists(file("fffd-pieces.json", Buffer.from(`${filler}\uFFFD`, "utf8")));
    expect(real?.join("")).toBe(`${filler}\uFFFD`);
  });
});
