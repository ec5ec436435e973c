/* How much a tool shows: binary files refused, overlong lines cut, the whole output capped. */

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

/** Shortens one overlong line (minified code) so it cannot eat a tool's whole output budget. */
export function cutLine(line: string, maxChars: number): string {
  if (line.length <= maxChars) return line;
  return `${line.slice(0, maxChars)}… (line cut, ${line.length} chars)`;
}

export interface OutputCaps {
  maxLines: number;
  maxBytes: number;
}

/**
 * Joins lines until either cap is reached, then says how many were left out,
 * so a model knows the output is partial and can narrow its request. `hint`
 * gets the number of lines kept and may say how to continue.
 */
export function capOutput(
  lines: readonly string[],
  caps: OutputCaps,
  hint?: (kept: number) => string,
): string {
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    const lineBytes = Buffer.byteLength(line, "utf8") + 1;
    if (kept.length >= caps.maxLines || bytes + lineBytes > caps.maxBytes) break;
    kept.push(line);
    bytes += lineBytes;
  }
  const omitted = lines.length - kept.length;
  if (omitted === 0) return kept.join("\n");
  const suffix = hint === undefined ? "" : `; ${hint(kept.length)}`;
  const note = `… truncated (${omitted} more ${omitted === 1 ? "line" : "lines"}${suffix})`;
  return kept.length === 0 ? note : `${kept.join("\n")}\n${note}`;
}
