/** Commands that run local code or shell built-ins: they fetch nothing, and their arguments are not scanned for launchers. */

import { type CommandHandler, emptyParse } from "../types.js";

/** node, java, shell built-ins and common tools: no package is fetched at launch. */
export const local: CommandHandler = {
  id: "local",
  commands: [
    "node", "nodejs", "java", "ruby", "php", "perl", "lua", "rscript", "tsx", "ts-node",
    "echo", "printf", "cd", "pushd", "popd", "export", "set", "unset", "source", ".", "test", "[", "true", "false", "exit", "read",
    "mkdir", "rm", "cp", "mv", "cat", "ls", "touch", "chmod", "chown", "ln", "curl", "wget", "git", "grep", "sed", "awk", "sleep",
    "which", "where", "tee", "head", "tail", "kill",
  ],
  parse: () => emptyParse(),
};
