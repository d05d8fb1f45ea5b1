/** The wrapper registry: commands that run another command (shells, cmd, PowerShell, env, WSL), in dispatch order. */

import type { CommandHandler } from "../types.js";
import { cmd } from "./cmd.js";
import { env } from "./env.js";
import { powershell } from "./powershell.js";
import { shell } from "./shell.js";
import { wsl } from "./wsl.js";

/** Every wrapper, checked before the launchers. */
export const WRAPPERS: readonly CommandHandler[] = [shell, powershell, cmd, env, wsl];
