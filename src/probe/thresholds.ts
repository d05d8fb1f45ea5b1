/** The probe rules' thresholds in one place (seed 003), so they can be argued with. */

/** P1: a response over this many estimated tokens is a warning... */
export const P1_WARNING_TOKENS = 5_000;
/** ...and over this many an error: Claude Code's default cap on tool output, so the agent sees it cut off. */
export const P1_ERROR_TOKENS = 25_000;

/** P2: opaque IDs over this share of a response's characters, without readable labels, are info... */
export const P2_INFO_SHARE = 0.1;
/** ...and over this share a warning. */
export const P2_WARNING_SHARE = 0.25;
/** P2 needs at least this many IDs: a create tool that answers with the one new ID is well made. */
export const P2_MIN_IDS = 3;

/** P3: responses over this many estimated tokens need a paging cursor or a note on what is left. */
export const P3_TOKENS = 5_000;
/** P3 reads this many characters at the start and at the end of a response for that cursor or note. */
export const P3_HINT_WINDOW = 600;

/** P5: a response over this many estimated tokens from a tool with no way to ask for less is info... */
export const P5_INFO_TOKENS = 1_000;
/** ...and over this many a warning. */
export const P5_WARNING_TOKENS = 5_000;
