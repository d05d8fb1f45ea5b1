/** Fixed bounds on hostile input, shared by the parser, the lock and the schema walker. */

/** Deepest nesting (objects and arrays) allowed inside one tool definition; the tool object is level 1. */
export const MAX_DEFINITION_DEPTH = 64;

/**
 * Most tools one list may hold. Clients load a few hundred at most; a list past this is hostile or
 * broken, and analysing it would take gigabytes (about 3 GB at 500,000 small tools).
 */
export const MAX_TOOLS = 50_000;
