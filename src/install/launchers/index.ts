/** The launcher registry: one parser per launcher, in dispatch order. */

import type { CommandHandler } from "../types.js";
import { bunx } from "./bunx.js";
import { cargo } from "./cargo.js";
import { deno } from "./deno.js";
import { dnx } from "./dnx.js";
import { docker } from "./docker.js";
import { go } from "./go.js";
import { local } from "./local.js";
import { npm } from "./npm.js";
import { npx } from "./npx.js";
import { pip } from "./pip.js";
import { pipx } from "./pipx.js";
import { pnpm } from "./pnpm.js";
import { python } from "./python.js";
import { uv } from "./uv.js";
import { uvx } from "./uvx.js";
import { yarn } from "./yarn.js";

/** Every launcher; a command name belongs to the first launcher that lists it. */
export const LAUNCHERS: readonly CommandHandler[] = [npx, npm, pnpm, yarn, bunx, uvx, uv, pipx, pip, python, docker, deno, go, dnx, cargo, local];
