/**
 * A text held as the pieces it was read in, searched and sliced as if it were one string. A large
 * lock is read this way: joining its pieces would hold the text twice for a moment (the pieces and
 * the joined copy), which at 10,000 tools is 27 MB more at the command's peak. Slices that fall
 * inside one piece share its memory, as String.prototype.slice does. Pure.
 */
export class PiecedText {
  readonly length: number;
  private readonly pieces: readonly string[];
  /** Where each piece starts in the whole text. */
  private readonly starts: number[];
  /** The piece the last position was found in: searches move forward, so it is usually the next one asked for. */
  private last = 0;

  constructor(pieces: readonly string[]) {
    this.pieces = pieces.filter((piece) => piece.length > 0);
    this.starts = [];
    let length = 0;
    for (const piece of this.pieces) {
      this.starts.push(length);
      length += piece.length;
    }
    this.length = length;
  }

  /** The whole text as one string (every piece copied once). */
  join(): string {
    return this.pieces.length === 1 ? (this.pieces[0] as string) : this.pieces.join("");
  }

  charCodeAt(position: number): number {
    if (!(position >= 0 && position < this.length)) return Number.NaN;
    const index = this.pieceAt(position);
    return (this.pieces[index] as string).charCodeAt(position - (this.starts[index] as number));
  }

  /** Like String.prototype.slice with 0 <= from <= to (clamped to the text). */
  slice(from: number, to: number): string {
    const start = Math.max(0, Math.min(from, this.length));
    const end = Math.max(start, Math.min(to, this.length));
    if (start === end) return "";
    const first = this.pieceAt(start);
    const firstStart = this.starts[first] as number;
    const firstPiece = this.pieces[first] as string;
    if (end <= firstStart + firstPiece.length) return firstPiece.slice(start - firstStart, end - firstStart);
    const parts = [firstPiece.slice(start - firstStart)];
    for (let index = first + 1; index < this.pieces.length; index++) {
      const pieceStart = this.starts[index] as number;
      const piece = this.pieces[index] as string;
      if (end <= pieceStart + piece.length) {
        parts.push(piece.slice(0, end - pieceStart));
        break;
      }
      parts.push(piece);
    }
    return parts.join("");
  }

  startsWith(search: string, position: number): boolean {
    if (!(position >= 0) || position + search.length > this.length) return false;
    if (search.length === 0) return true;
    const index = this.pieceAt(position);
    const local = position - (this.starts[index] as number);
    const piece = this.pieces[index] as string;
    if (local + search.length <= piece.length) return piece.startsWith(search, local);
    return this.slice(position, position + search.length) === search;
  }

  /** Like String.prototype.indexOf for a non-empty `search` and 0 <= from. */
  indexOf(search: string, from: number): number {
    if (search.length === 0) throw new RangeError("PiecedText.indexOf needs a non-empty search");
    if (!(from >= 0) || from >= this.length) return -1;
    for (let index = this.pieceAt(from); index < this.pieces.length; index++) {
      const pieceStart = this.starts[index] as number;
      const piece = this.pieces[index] as string;
      const local = Math.max(0, from - pieceStart);
      const found = piece.indexOf(search, local);
      if (found >= 0) return pieceStart + found;
      // A match that starts in this piece and ends in a later one.
      const pieceEnd = pieceStart + piece.length;
      const windowStart = Math.max(from, pieceEnd - search.length + 1);
      const window = this.slice(windowStart, pieceEnd + search.length - 1);
      const across = window.indexOf(search);
      if (across >= 0) return windowStart + across;
    }
    return -1;
  }

  /** Like String.prototype.lastIndexOf for a non-empty `search` and 0 <= from. */
  lastIndexOf(search: string, from: number): number {
    if (search.length === 0) throw new RangeError("PiecedText.lastIndexOf needs a non-empty search");
    if (this.length === 0 || !(from >= 0)) return -1;
    const limit = Math.min(from, this.length - 1);
    for (let index = this.pieceAt(limit); index >= 0; index--) {
      const pieceStart = this.starts[index] as number;
      const piece = this.pieces[index] as string;
      const pieceEnd = pieceStart + piece.length;
      // The last start in this piece to consider.
      const top = Math.min(limit, pieceEnd - 1);
      // A match that starts here and runs into a later piece starts after any that ends inside it.
      const windowStart = Math.max(pieceStart, pieceEnd - search.length + 1);
      if (top >= windowStart) {
        const across = this.slice(windowStart, top + search.length).lastIndexOf(search, top - windowStart);
        if (across >= 0) return windowStart + across;
      }
      const found = piece.lastIndexOf(search, top - pieceStart);
      if (found >= 0) return pieceStart + found;
    }
    return -1;
  }

  /** The index of the piece that holds `position` (0 <= position < length). */
  private pieceAt(position: number): number {
    const cached = this.starts[this.last] as number;
    if (position >= cached && position < cached + (this.pieces[this.last] as string).length) return this.last;
    let low = 0;
    let high = this.pieces.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.starts[middle] as number) <= position) low = middle;
      else high = middle - 1;
    }
    this.last = low;
    return low;
  }
}
