// Issue 37 item 4: a long pointer is cut in the middle, not at the end, so two that differ near the end stay apart.
import { describe, expect, it } from "vitest";
import { capDisplay, capPath, neutralize } from "../../../src/text/neutralize.js";

const stem = "/inputSchema/properties/deep/anyOf/1/properties/contents/items/properties";
const one = `${stem}/a_rather_long_property_name_for_the_first_option_of_this_group_value/description`;
const two = `${stem}/a_rather_long_property_name_for_the_first_option_of_this_group_other/description`;

describe("capPath", () => {
  it("regression: two pointers that differ only near the end looked the same after a plain cut, and now do not", () => {
    expect(one.length).toBeGreaterThan(128);
    // The old cut: the start only, and both ended in the same count.
    expect(capDisplay(one, 128)).toBe(capDisplay(two, 128));
    const [a, b] = [capPath(one, 128), capPath(two, 128)];
    expect(a).not.toBe(b);
    for (const shown of [a, b]) expect(shown.length).toBeLessThanOrEqual(128);
    expect(a.startsWith("/inputSchema/properties/deep/")).toBe(true);
    expect(a.endsWith("_group_value/description")).toBe(true);
    expect(b.endsWith("_group_other/description")).toBe(true);
    expect(a).toContain("...");
  });

  it("leaves a pointer that fits alone, and cuts at a `/` when one is near", () => {
    expect(capPath("/inputSchema/properties/x", 128)).toBe("/inputSchema/properties/x");
    const segments = `/${Array.from({ length: 30 }, (_, index) => `seg${index}`).join("/")}`;
    const shown = capPath(segments, 60);
    expect(shown).toMatch(/^\/seg0\/.*\/\.\.\.\/.*\/seg29$/);
    expect(shown.length).toBeLessThanOrEqual(60);
  });

  it("never cuts inside an escape of a hidden character, nor inside a surrogate pair", () => {
    // Server text: zero-width spaces and TAG characters become `\u{...}` escapes before the cut.
    const hidden = neutralize(`/properties/${"\u200b".repeat(40)}x${"\u{E0041}".repeat(40)}`);
    const shown = capPath(hidden, 100);
    expect(shown.length).toBeLessThanOrEqual(100);
    const [head, tail] = shown.split("...");
    expect(head).toMatch(/^\/properties\/(\\u\{200B\})*$/);
    expect(tail).toMatch(/^(\\u\{E0041\})*$/);
    const emoji = `/${"\u{1F600}".repeat(100)}`;
    const cut = capPath(emoji, 51);
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });
});
