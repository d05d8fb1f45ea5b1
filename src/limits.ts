/** Fixed bounds on hostile input, shared by the parser, the lock and the schema walker. */

/** Deepest nesting (objects and arrays) allowed inside one tool definition; the tool object is level 1. */
export const MAX_DEFINITION_DEPTH = 64;
