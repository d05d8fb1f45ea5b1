/** Every constant of the token-weighted score in one place, so they can be argued with. */

// Rough estimates of the tokens a problem costs an agent per session; treat the ordering of tools
// as the result, not the exact numbers.

/**
 * Estimated waste per finding, by `rule` or `rule:reason`; findings not listed cost nothing (S5, S6,
 * S8, the other definition rules). A parameter is charged once, for its costliest finding, and a
 * client-sdk1-rejects tool once, however many of its parts the SDK refuses.
 */
export const STATIC_WASTE: Readonly<Record<string, number>> = {
  "S1:missing": 2_000, // the agent guesses, retries or picks the wrong tool
  "S1:empty": 2_000,
  "S1:not_string": 2_000,
  "client-sdk1-rejects": 2_000, // priced as a missing description: the tool cannot be called as described
  S7: 2_000, // an unbounded list, when no probe measured it
  "S1:short": 500,
  S4: 500, // a wrong pick between two overlapping tools
  S2: 300, // a wrong or retried argument
  "S3:untyped": 300,
  "S3:undescribed": 100,
  // A parameter whose name, type and constraints say what it takes (an enum of words, a flag named by a verb).
  "S2:self_explanatory": 0,
  "S3:self_explanatory": 0,
  // Probe findings that are priced rather than measured (seed 003). P1 and P2 are measured instead.
  "P4:stack_trace": 1_500, // the agent cannot tell what went wrong and retries blind
  "P4:empty": 1_500,
  "P4:opaque": 1_500,
  "P3:no_params": 1_000, // a big answer the agent cannot page through
  "P4:no_guidance": 700,
  "P4:as_success": 500, // the agent takes an error for data
  "P4:accepted": 500,
  // "P4:untested" is absent on purpose: an error every call gets says nothing of the tool's error handling.
  P5: 300, // no way to ask for a shorter answer
};

/** Tokens a single response may take before the rest counts as measured waste (P1 in the score). */
export const RESPONSE_BUDGET_TOKENS = 2_000;

/** Definition tokens per tool that cost nothing extra; each token above is overhead. */
export const DEFINITION_FREE_TOKENS = 300;
/**
 * How many times definition overhead is paid per session: definitions are resent every turn but
 * usually prompt-cached, so about 20 turns at about 10% cost.
 */
export const DEFINITION_OVERHEAD_FACTOR = 2;
/** A tool's score halves for every this many wasted tokens. */
export const TOOL_HALF_LIFE = 5_000;
/** The server's score halves for every this many wasted tokens. */
export const SERVER_HALF_LIFE = 10_000;
/** Tools an agent uses in a typical session: the average per-tool usage waste is counted this many times. */
export const TOOLS_USED_PER_SESSION = 3;
/**
 * Highest score of a server whose list MCP SDK 1.x clients reject (client-sdk1-rejects): Claude Code
 * and Gemini CLI then show the model none of its tools, so it is graded F (the top of F, so waste
 * still orders such servers) whatever the rest of its waste.
 */
export const LIST_REJECTED_MAX_SCORE = 24;
/** Lowest score for each grade, best first; anything lower is F. */
export const GRADE_FLOORS: readonly (readonly ["A" | "B" | "C" | "D", number])[] = [
  ["A", 90],
  ["B", 75],
  ["C", 50],
  ["D", 25],
];
