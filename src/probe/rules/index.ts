/** Every probe rule, registered once, in the order findings are reported within a tool. */

import { formatParity } from "./format-parity.js";
import { p1LargeResponse } from "./p1-large-response.js";
import { p2OpaqueIds } from "./p2-opaque-ids.js";
import { p3NoPagingHint } from "./p3-no-paging-hint.js";
import { p4ErrorQuality } from "./p4-error-quality.js";
import { p5NoConciseMode } from "./p5-no-concise-mode.js";
import type { ProbeRule } from "./rule.js";

/** The probe rules, P1 to P5 then format parity. */
export const PROBE_RULES: readonly ProbeRule[] = [p1LargeResponse, p2OpaqueIds, p3NoPagingHint, p4ErrorQuality, p5NoConciseMode, formatParity];
