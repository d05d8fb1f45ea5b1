/**
 * Base64 of binary data in a tool answer (an image, an archive, a resource's `blob`): text that no
 * reader expects the content to render (format-parity) and no page or concise mode shortens (P3,
 * P5). Pure.
 */

/**
 * Shortest string judged binary by its bytes alone. Shorter ones are too often something a reader
 * needs (a page token, a key, an opaque id: "Dana" is valid base64 too), unless they start with a
 * file signature.
 */
export const MIN_BINARY_CHARS = 256;
/** Shortest string whose file signature is read. */
const MIN_SIGNED_CHARS = 16;
/** Characters decoded to judge the bytes (a multiple of 4): the start of a file says what it is. */
const SAMPLE_CHARS = 3_000;

// The first bytes of common binary files: PNG, JPEG, GIF, PDF, ZIP (and Office files), gzip, RIFF
// (WebP, WAV, AVI), Ogg, FLAC, MP3 with ID3, TIFF both ways, ICO, WebAssembly, ELF, 7z.
const SIGNATURES: readonly (readonly number[])[] = [
  [0x89, 0x50, 0x4e, 0x47],
  [0xff, 0xd8, 0xff],
  [0x47, 0x49, 0x46, 0x38],
  [0x25, 0x50, 0x44, 0x46],
  [0x50, 0x4b, 0x03, 0x04],
  [0x1f, 0x8b, 0x08],
  [0x52, 0x49, 0x46, 0x46],
  [0x4f, 0x67, 0x67, 0x53],
  [0x66, 0x4c, 0x61, 0x43],
  [0x49, 0x44, 0x33],
  [0x49, 0x49, 0x2a, 0x00],
  [0x4d, 0x4d, 0x00, 0x2a],
  [0x00, 0x00, 0x01, 0x00],
  [0x00, 0x61, 0x73, 0x6d],
  [0x7f, 0x45, 0x4c, 0x46],
  [0x37, 0x7a, 0xbc, 0xaf],
];

/** True when the bytes start with a known file signature (or an MP4/MOV `ftyp` box). */
function isSigned(bytes: Uint8Array): boolean {
  if (bytes.length >= 8 && bytes[4] === 0x66 && bytes[5] === 0x74 && bytes[6] === 0x79 && bytes[7] === 0x70) return true;
  return SIGNATURES.some((signature) => signature.length <= bytes.length && signature.every((byte, index) => bytes[index] === byte));
}

/** True for a base64 alphabet character (`A-Z`, `a-z`, `0-9`, `+`, `/`). */
function isBase64Char(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 43 || code === 47;
}

/** True when the whole string is standard base64: the alphabet, then at most two `=` that make the length a multiple of 4. */
export function isBase64(value: string): boolean {
  let end = value.length;
  while (end > 0 && value.charCodeAt(end - 1) === 61 && value.length - end < 2) end--;
  if (end === 0 || (end < value.length && value.length % 4 !== 0) || value.length % 4 === 1) return false;
  for (let index = 0; index < end; index++) if (!isBase64Char(value.charCodeAt(index))) return false;
  return true;
}

/** True when bytes are not text: a control byte other than tab, line feed, form feed or carriage return, or invalid UTF-8. */
function isBinaryBytes(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (byte < 32 && byte !== 9 && byte !== 10 && byte !== 12 && byte !== 13) return true;
  try {
    // `stream` lets the sample end inside a multi-byte character.
    new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true });
    return false;
  } catch {
    return true;
  }
}

/** True for a string of hex digits only: a hash or an id, even when its length makes it valid base64. */
function isHex(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index) | 0x20;
    if (!((code >= 48 && code <= 57) || (code >= 97 && code <= 102))) return false;
  }
  return true;
}

/** The first bytes a base64 string stands for (up to `SAMPLE_CHARS` characters of it). */
function leadingBytes(value: string): Uint8Array {
  const sample = value.length > SAMPLE_CHARS ? value.slice(0, SAMPLE_CHARS) : value;
  const raw = atob(sample.slice(0, sample.length - (sample.length % 4)));
  const bytes = new Uint8Array(raw.length);
  for (let index = 0; index < raw.length; index++) bytes[index] = raw.charCodeAt(index);
  return bytes;
}

/**
 * True for a string that is base64 of binary data: all base64, not just hex digits, and either
 * its bytes start with a file signature (a PNG, a PDF, a zip, from 16 characters) or, from
 * `MIN_BINARY_CHARS`, its first bytes are not UTF-8 text. Base64 of text (a JSON document, a CSV)
 * is not binary: a client could render what it says.
 */
export function isBinaryBase64(value: string): boolean {
  if (value.length < MIN_SIGNED_CHARS || !isBase64(value) || isHex(value)) return false;
  const bytes = leadingBytes(value);
  if (isSigned(bytes)) return true;
  return value.length >= MIN_BINARY_CHARS && isBinaryBytes(bytes);
}

/**
 * True for the `blob` of resource contents (`{"uri": ..., "blob": ...}`, MCP's BlobResourceContents),
 * which the specification defines as base64 of binary data, whatever its length.
 */
export function isResourceBlob(holder: { readonly [key: string]: unknown }, key: string): boolean {
  const value = Object.hasOwn(holder, key) ? holder[key] : undefined;
  return key === "blob" && typeof value === "string" && typeof (Object.hasOwn(holder, "uri") ? holder.uri : undefined) === "string" && isBase64(value);
}
