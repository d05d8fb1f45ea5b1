// Types for bench/gen-tools.mjs (real-shaped tool lists for the benches and the large-lock test).

/** One generated tool definition, as a server would list it. */
export type GeneratedTool = { name: string; description: string; [key: string]: unknown };

/** `n` real-shaped tools, the same for the same seed. */
export function generateTools(n: number, seed?: number): GeneratedTool[];

/** A from-file document (server name, version, instructions and `n` tools). */
export function generateServerFile(n: number, seed?: number): { tools: GeneratedTool[]; [key: string]: unknown };
