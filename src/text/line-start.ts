/** The last guard on an output stream: no line it carries can be read as a CI workflow command. */

// A CI runner reads every line of a step's output, trims leading whitespace, and runs a line that
// starts with `::name::` (GitHub Actions) or `##[name]` (its older syntax, and Azure Pipelines'
// `##vso[`) as a command: it can set outputs, mask text, stop command processing or fake an error.
// Server text is neutralized wherever a report shows it, but a report indents, quotes and splits it
// into lines of its own; this guard sees the stream exactly as the runner will. mcp-lint never means
// to print a workflow command itself (the Action writes its own through another channel).

/** Code units that end a line for a runner: LF and CR (CRLF is two ends of which the second starts nothing). */
function isBreak(unit: number): boolean {
  return unit === 0x0a || unit === 0x0d;
}

function isIndent(unit: number): boolean {
  return unit === 0x20 || unit === 0x09 || unit === 0x0b || unit === 0x0c;
}

/** What starts a command line: GitHub's `::`, its older `##[`, Azure Pipelines' `##vso[`. */
const STARTS = ["::", "##[", "##vso["];

/** Whether `text` at `at` starts a command, or could once more text comes (it ends in a start's beginning). */
function commandAt(text: string, at: number): boolean {
  const rest = text.slice(at, at + 6);
  return STARTS.some((start) => rest.startsWith(start) || (at + rest.length === text.length && start.startsWith(rest)));
}

/**
 * Escapes the first character of every line that would start a command once its leading
 * whitespace is trimmed (`::`, `##[`, `##vso[`): `:` becomes `\u{3A}` and `#` becomes `\u{23}`, as the
 * neutralizer writes them. Keeps state between writes, so a line split over two writes is seen
 * whole. Linear in the text.
 */
export class LineStartGuard {
  /** At the start of a line, or only indentation since it started. */
  private atStart = true;

  /** The text to write instead of `text`. */
  apply(text: string): string {
    let out = "";
    let from = 0;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (isBreak(unit)) {
        this.atStart = true;
        continue;
      }
      if (!this.atStart) continue;
      if (isIndent(unit)) continue;
      this.atStart = false;
      // A write that ends in the beginning of one (`:`, `#`, `##v`) could become a command with the
      // next: escaped too, since what follows is not known (mcp-lint's own lines never end that way).
      if (commandAt(text, i)) {
        out += `${text.slice(from, i)}${unit === 0x3a ? "\\u{3A}" : "\\u{23}"}`;
        from = i + 1;
      }
    }
    return from === 0 ? text : out + text.slice(from);
  }
}
