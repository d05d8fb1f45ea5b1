// lock --review's decision loop, driven by a list of keys: what each key decides, prints or re-asks.
import { describe, expect, it } from "vitest";
import { checkReviewTerminal, type KeyIo, REVIEW_HELP, type ReviewItem, reviewLoop, reviewSummary, splitKeys } from "../../../src/cli/review.js";

function item(name: string | null, extra: Partial<ReviewItem> = {}): ReviewItem {
  return {
    server: null,
    name,
    label: name ?? "(server)",
    isTool: name !== null,
    text: `${name ?? "(server)"}\n  error   description_changed\n`,
    json: `{"tool": ${JSON.stringify(name)}}\n`,
    acceptable: name !== null,
    ...extra,
  };
}

/** Keys from a list (null once it runs out), and everything written. */
function scripted(keys: readonly string[]): KeyIo & { written: () => string; left: () => number } {
  const queue = [...keys];
  let text = "";
  return {
    nextKey: async () => queue.shift() ?? null,
    write: (chunk) => {
      text += chunk;
    },
    written: () => text,
    left: () => queue.length,
  };
}

const prompts = (text: string) => text.split("[y,n,j,q,?] ").length - 1;

describe("reviewLoop", () => {
  it("y accepts, n keeps, one answer per item", async () => {
    const io = scripted(["y", "n"]);
    const outcome = await reviewLoop([item("get_weather"), item("send_note")], io);
    expect(outcome).toEqual({ accepted: [true, false], interrupted: false });
    expect(io.written()).toContain("(1/2) get_weather");
    expect(io.written()).toContain("(2/2) send_note");
    expect(prompts(io.written())).toBe(2);
  });

  it("an Enter after the key (or alone) is skipped, not taken as an answer", async () => {
    const io = scripted(["y", "\r", "\n", "n", "\r"]);
    expect((await reviewLoop([item("a"), item("b")], io)).accepted).toEqual([true, false]);
    expect(prompts(io.written())).toBe(2);
  });

  it("? prints the keys and asks again", async () => {
    const io = scripted(["?", "y"]);
    expect((await reviewLoop([item("a")], io)).accepted).toEqual([true]);
    expect(io.written()).toContain(REVIEW_HELP);
    expect(prompts(io.written())).toBe(2);
  });

  it("j prints the JSON of the changes and asks again", async () => {
    const io = scripted(["j", "n"]);
    expect((await reviewLoop([item("a", { json: '[{"kind": "description_changed"}]\n' })], io)).accepted).toEqual([false]);
    expect(io.written()).toContain('[{"kind": "description_changed"}]');
    expect(prompts(io.written())).toBe(2);
  });

  it("an unknown key (a letter, an arrow key) says so and asks again", async () => {
    const io = scripted(["x", "\u001b[A", "y"]);
    expect((await reviewLoop([item("a")], io)).accepted).toEqual([true]);
    expect(io.written().match(/Unknown key; \? prints the keys\./g)).toHaveLength(2);
    expect(prompts(io.written())).toBe(3);
  });

  it("q keeps what was accepted and leaves the rest locked without asking", async () => {
    const io = scripted(["y", "q", "y"]);
    const outcome = await reviewLoop([item("a"), item("b"), item("c")], io);
    expect(outcome).toEqual({ accepted: [true, false, false], interrupted: false });
    expect(io.written()).not.toContain("(3/3)");
    expect(io.left()).toBe(1);
  });

  it("Ctrl-C, Ctrl-D or the end of input interrupts, with nothing accepted", async () => {
    for (const keys of [["y", "\u0003"], ["y", "\u0004"], ["y"]]) {
      expect(await reviewLoop([item("a"), item("b")], scripted(keys))).toEqual({ accepted: [false, false], interrupted: true });
    }
  });

  it("the server's own changes cannot be accepted by name: y explains, n moves on", async () => {
    const io = scripted(["y", "n"]);
    const outcome = await reviewLoop([item(null)], io);
    expect(outcome.accepted).toEqual([false]);
    expect(io.written()).toContain("[n,j,q,?] ");
    expect(io.written()).toContain("accepted only by --accept");
  });
});

describe("reviewSummary", () => {
  it("names the accepted and what still differs", () => {
    expect(reviewSummary([item("get_weather"), item("send_note")], [true, false])).toBe(
      "accepted 1 tool (get_weather); 1 still differs from the lock: send_note",
    );
    expect(reviewSummary([item("a"), item("b")], [false, false])).toBe("accepted nothing; 2 still differ from the lock: a, b");
    expect(reviewSummary([item("a"), item("b", { label: "prompt b", isTool: false })], [true, true])).toBe(
      "accepted 2 items (a, prompt b); nothing else differs from the lock",
    );
  });
});

describe("the terminal edge", () => {
  it("splits what a terminal sent into keys: one per character, an escape sequence as one", () => {
    expect(splitKeys("y\rn")).toEqual(["y", "\r", "n"]);
    expect(splitKeys("\u001b[Aq")).toEqual(["\u001b[A", "q"]);
  });

  it("refuses unless stdin and stdout are both terminals", () => {
    expect(() => checkReviewTerminal({ isTTY: true }, { isTTY: true })).not.toThrow();
    expect(() => checkReviewTerminal({ isTTY: true }, {})).toThrow(/--review needs a terminal .*; use --accept-tool NAME instead$/);
    expect(() => checkReviewTerminal({}, { isTTY: true })).toThrow(/needs a terminal/);
  });
});
