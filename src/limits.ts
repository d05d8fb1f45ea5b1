/** Fixed bounds on hostile input, shared by the parser, the lock and the schema walker. */

/** Deepest nesting (objects and arrays) allowed inside one tool definition; the tool object is level 1. */
export const MAX_DEFINITION_DEPTH = 64;

/**
 * Most tools one list may hold. Clients load a few hundred at most; a list past this is hostile or
 * broken, and analysing it would take gigabytes (about 3 GB at 500,000 small tools).
 */
export const MAX_TOOLS = 50_000;

/**
 * Most lint findings one run collects. Every finding costs memory in each report (a million took
 * 2.8 GB and a 468 MB JSON report); past this the run stops with one line instead of running out.
 */
export const MAX_FINDINGS = 250_000;

/**
 * Most servers `wrap` or `unwrap` edits in one config file. Each edit is checked against the whole
 * file, which grows quadratically (1,000 servers took 15 s, 4,000 took 7 minutes); real configs
 * hold tens of servers.
 */
export const MAX_WRAP_SERVERS = 200;

/** Most changes one comparison with a lock collects, for the same reason (a million took 3 GB and 39 s). */
export const MAX_CHANGES = 250_000;
