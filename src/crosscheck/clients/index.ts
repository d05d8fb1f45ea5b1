/** Every client crosscheck can run, in the order it runs them by default. */

import type { ClientAdapter } from "../types.js";
import { claudeCode } from "./claude-code.js";
import { codex } from "./codex.js";
import { geminiCli } from "./gemini-cli.js";
import { inspector } from "./inspector.js";

export const CLIENT_ADAPTERS: readonly ClientAdapter[] = [claudeCode, codex, geminiCli, inspector];
