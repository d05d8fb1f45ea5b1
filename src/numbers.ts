/** Numbers in messages and reports, the same on every machine. */

/** An integer with thousands separators (`12,345`); toLocaleString is slow on first use and locale-dependent. */
export function thousands(value: number): string {
  const digits = String(Math.round(Math.abs(value)));
  let out = "";
  for (let index = 0; index < digits.length; index++) {
    if (index > 0 && (digits.length - index) % 3 === 0) out += ",";
    out += digits[index];
  }
  return value < 0 ? `-${out}` : out;
}

/** A count with its noun: `1 tool`, `12,345 tools`. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${thousands(count)} ${count === 1 ? one : many}`;
}
