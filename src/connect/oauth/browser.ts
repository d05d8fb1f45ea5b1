/**
 * Open a login page: the BROWSER variable's command (the URL as its last argument), else the
 * platform's opener where there is a display; the caller prints the URL when neither works. The
 * URL is an argument, never shell text, and only https:// (or http:// to this machine) is opened:
 * the authorization server names the page, and a hostile one could name any scheme.
 */

import { spawn } from "node:child_process";
import { parse } from "shell-quote";
import { isLocalHost } from "../target.js";

/** Whether `url` may be handed to a browser. */
export function openableUrl(url: URL): boolean {
  return url.protocol === "https:" || (url.protocol === "http:" && isLocalHost(url.hostname));
}

/** The command that opens a URL here, without the URL; null when there is none to try. */
export function openerCommand(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform): string[] | null {
  const browser = env.BROWSER?.trim();
  if (browser) {
    const words = parse(browser);
    // Shell operators or globs in BROWSER are not run: only a plain command and its arguments.
    if (words.length > 0 && words.every((word) => typeof word === "string")) return words as string[];
    return null;
  }
  if (platform === "darwin") return ["open"];
  if (platform === "win32") return ["rundll32", "url.dll,FileProtocolHandler"];
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return ["xdg-open"];
  return null;
}

/**
 * Start the opener for `url`; resolves true once it runs (or ran and exited 0), false when it
 * could not start or failed at once. The opener is not waited for beyond that: a browser can stay.
 */
export function openInBrowser(url: URL, env: Readonly<Record<string, string | undefined>> = process.env, platform = process.platform): Promise<boolean> {
  const command = openableUrl(url) ? openerCommand(env, platform) : null;
  if (command === null) return Promise.resolve(false);
  const [program, ...args] = command as [string, ...string[]];
  return new Promise((resolve) => {
    let settled = false;
    const settle = (ok: boolean) => {
      if (settled) return;
      settled = true;
      resolve(ok);
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(program, [...args, url.href], { stdio: "ignore", detached: platform !== "win32" });
    } catch {
      settle(false);
      return;
    }
    // Held until settled, so the run waits for the answer; then let go, so a browser that stays
    // open never keeps the run alive. Still running after a moment: it has taken the page.
    const timer = setTimeout(() => done(true), 1500);
    function done(ok: boolean): void {
      clearTimeout(timer);
      child.unref();
      settle(ok);
    }
    child.once("error", () => done(false));
    child.once("exit", (code) => done(code === 0));
  });
}
