// Types for the few npm libraries the pinned install uses that ship none: only the calls made here.

declare module "npm-install-checks" {
  interface PlatformTarget {
    os?: unknown;
    cpu?: unknown;
    libc?: unknown;
  }
  const checks: {
    /** Throws an error with code EBADPLATFORM when the package's os/cpu/libc exclude this machine. */
    checkPlatform(target: PlatformTarget, force?: boolean): void;
  };
  export = checks;
}

declare module "npm-normalize-package-bin" {
  /** Turns `bin` (string, array or object) into a clean `{ name: relative path }` map, in place; drops unsafe names. */
  function normalize<T extends { name?: unknown; bin?: unknown }>(pkg: T): T;
  export = normalize;
}

declare module "bin-links" {
  interface BinLinks {
    /** Links a package's bins into the `.bin` folder of the node_modules that holds it, and makes them executable. */
    (options: { path: string; pkg: object; top: boolean; global: boolean; force: boolean }): Promise<unknown>;
    /** The links binLinks makes for a package. */
    getPaths(options: { path: string; pkg: object; top: boolean; global: boolean }): string[];
  }
  const binLinks: BinLinks;
  export = binLinks;
}

declare module "@npmcli/run-script" {
  interface RunScriptResult {
    code: number | null;
    signal: string | null;
    stdout: unknown;
    stderr: unknown;
  }
  /** Runs one lifecycle event of a package the way npm does (its .bin folders on PATH, npm's env, node-gyp for a binding.gyp). */
  function runScript(options: { event: string; path: string; pkg: object; stdio: "pipe" | "inherit"; env?: Record<string, string> }): Promise<RunScriptResult>;
  export = runScript;
}
