/** Container image references: pinned only by an `@sha256:` (or `@sha512:`) digest. */

import { hasVariable, MAX_SPEC, safeDisplay } from "../tokens.js";
import type { Classified } from "./classified.js";

const DIGEST = /^(?:sha256:[0-9a-f]{64}|sha512:[0-9a-f]{128})$/;
// [registry[:port]/]path[:tag]; repository paths are lower-case, the registry host may not be.
const REFERENCE =
  /^(?:[A-Za-z0-9.-]+(?::\d+)?\/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?$/;

/** Classify an image reference as given to `docker run`. */
export function classifyImage(reference: string, launcher: string): Classified {
  const display = safeDisplay(reference);
  if (reference.length > MAX_SPEC) return { reason: "too_long", display };
  if (hasVariable(reference)) return { reason: "variable", display };
  const at = reference.indexOf("@");
  const name = at < 0 ? reference : reference.slice(0, at);
  if (!REFERENCE.test(name)) return { reason: "invalid_spec", display };
  const base = {
    ecosystem: "image" as const,
    name: name.replace(/:[^/:]*$/, ""),
    display,
    role: "main" as const,
    launcher,
    resolves: { type: "none" as const },
  };
  if (at >= 0) {
    const digest = reference.slice(at + 1);
    // A short or malformed digest pins nothing (docker refuses it, or it names no single image).
    if (!DIGEST.test(digest)) return { ...base, verdict: "no_digest", reason: "invalid_digest", spec: safeDisplay(digest) };
    return { ...base, verdict: "pinned", reason: null };
  }
  const tag = /:([^/:]+)$/.exec(name)?.[1];
  return tag === undefined ? { ...base, verdict: "no_digest", reason: "image_no_tag" } : { ...base, verdict: "no_digest", reason: "image_tag", spec: tag };
}
