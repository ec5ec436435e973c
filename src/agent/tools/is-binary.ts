/** How much of a file is inspected for a NUL byte, as git and ripgrep do. */
export const BINARY_SNIFF_BYTES = 8 * 1024;

/** A file with a NUL byte near its start is binary: not text a reviewer can read. */
export function isBinary(content: Uint8Array): boolean {
  const end = Math.min(content.length, BINARY_SNIFF_BYTES);
  for (let index = 0; index < end; index++) {
    if (content[index] === 0) return true;
  }
  return false;
}
