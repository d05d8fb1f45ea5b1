// PiecedText (src/text/pieced.ts) stands in for one string in the large-lock reader: every search
// and slice must give exactly what the same call on the joined string gives, wherever the pieces
// are cut, including a match that spans several pieces and empty or one-character pieces.
import { describe, expect, it } from "vitest";
import { PiecedText } from "../../../src/text/pieced.js";

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** `text` cut at random places into pieces of 0 to `longest` characters. */
function cutRandomly(text: string, next: () => number, longest: number): string[] {
  const pieces: string[] = [];
  let at = 0;
  while (at < text.length) {
    const size = Math.floor(next() * (longest + 1));
    pieces.push(text.slice(at, at + size));
    at += size;
  }
  return pieces;
}

const TEXT = '{\n  "tools": {\n    "a": {\n      "x": 1\n    },\n    "b": {\n      "y": "\\n    }"\n    }\n  }\n}\n';
const SEARCHES = ["\n", '"tools": {\n', "\n    }", ": {", "}", "nope", '"', TEXT.slice(3, 40)];

describe("PiecedText", () => {
  it("answers indexOf, lastIndexOf, startsWith, charCodeAt and slice as the joined string does, for random cuts", () => {
    const next = random(7);
    for (let round = 0; round < 24; round++) {
      const pieces = cutRandomly(TEXT, next, round % 3 === 0 ? 1 : round % 3 === 1 ? 5 : 30);
      const text = new PiecedText(pieces);
      expect(text.length).toBe(TEXT.length);
      expect(text.join()).toBe(TEXT);
      for (let at = 0; at <= TEXT.length + 1; at++) {
        expect(text.charCodeAt(at)).toEqual(TEXT.charCodeAt(at));
        for (const search of SEARCHES) {
          expect(text.indexOf(search, at), `indexOf ${JSON.stringify(search)} from ${at}`).toBe(TEXT.indexOf(search, at));
          expect(text.lastIndexOf(search, at), `lastIndexOf ${JSON.stringify(search)} from ${at}`).toBe(TEXT.lastIndexOf(search, at));
          expect(text.startsWith(search, at)).toBe(TEXT.startsWith(search, at));
        }
        for (const length of [0, 1, 2, 7, 50, 200]) expect(text.slice(at, at + length)).toBe(TEXT.slice(at, at + length));
      }
    }
  });

  it("keeps a slice inside one piece as a slice of it, and holds an empty text", () => {
    const text = new PiecedText(["abc", "", "defg"]);
    expect(text.slice(3, 7)).toBe("defg");
    expect(text.slice(2, 4)).toBe("cd");
    const empty = new PiecedText([]);
    expect(empty.length).toBe(0);
    expect(empty.indexOf("a", 0)).toBe(-1);
    expect(empty.lastIndexOf("a", 0)).toBe(-1);
    expect(empty.startsWith("", 0)).toBe(true);
    expect(empty.slice(0, 5)).toBe("");
    expect(Number.isNaN(empty.charCodeAt(0))).toBe(true);
  });
});
