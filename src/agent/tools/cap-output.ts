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
