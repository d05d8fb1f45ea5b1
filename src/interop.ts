/** Dynamic imports of CommonJS packages, which arrive in different shapes in the bundle and out of it. */

/**
 * A package's exports after `await import(name)`. Node hands a CommonJS module's exports over as
 * named exports only when it can detect them, and a bundle chunk as the default export only; the
 * `probe` export says which shape arrived.
 */
export function exportsOf<T extends object>(loaded: T & { default?: T }, probe: keyof T): T {
  return typeof loaded[probe] === "function" ? loaded : (loaded.default as T);
}
