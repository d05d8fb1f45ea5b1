/** Commands that run local code or shell built-ins: they fetch nothing themselves, but inline code (`node -e`) can run anything. */

import { commandName } from "../tokens.js";
import { type CommandHandler, emptyParse } from "../types.js";

// Options that take code to run from the command line, per interpreter.
const INLINE_CODE: Readonly<Record<string, RegExp>> = {
  node: /^(?:-[A-Za-z]*[ep][A-Za-z]*|--eval(?:=.*)?|--print(?:=.*)?)$/s,
  nodejs: /^(?:-[A-Za-z]*[ep][A-Za-z]*|--eval(?:=.*)?|--print(?:=.*)?)$/s,
  tsx: /^(?:-e|-p|--eval(?:=.*)?|--print(?:=.*)?)$/s,
  "ts-node": /^(?:-e|-p|--eval(?:=.*)?|--print(?:=.*)?)$/s,
  ruby: /^-[A-Za-z]*e[A-Za-z]*$/,
  perl: /^-[A-Za-z]*[eE][A-Za-z]*$/,
  php: /^-r$/,
  lua: /^-e$/,
  rscript: /^(?:-e|--expr(?:=.*)?)$/s,
};

/** node, java, shell built-ins and common tools: no package is fetched at launch, unless inline code does it. */
export const local: CommandHandler = {
  id: "local",
  commands: [
    "node",
    "nodejs",
    "java",
    "ruby",
    "php",
    "perl",
    "lua",
    "rscript",
    "tsx",
    "ts-node",
    "echo",
    "printf",
    "cd",
    "pushd",
    "popd",
    "export",
    "set",
    "unset",
    "source",
    ".",
    "test",
    "[",
    "true",
    "false",
    "exit",
    "read",
    "mkdir",
    "rm",
    "cp",
    "mv",
    "cat",
    "ls",
    "touch",
    "chmod",
    "chown",
    "ln",
    "curl",
    "wget",
    "git",
    "grep",
    "sed",
    "awk",
    "sleep",
    "which",
    "where",
    "tee",
    "head",
    "tail",
    "kill",
  ],
  parse(argv) {
    const result = emptyParse();
    const inline = INLINE_CODE[commandName(argv[0] ?? "")];
    // Options come before the script file; after the first operand, the rest are the script's arguments.
    if (inline !== undefined) {
      for (const token of argv.slice(1)) {
        if (inline.test(token)) result.opaque = true;
        if (!token.startsWith("-")) break;
      }
    }
    return result;
  },
};
