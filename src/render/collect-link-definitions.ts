/** Link reference definitions of a text: normalised label → destination as written. */
export type LinkDefinitions = ReadonlyMap<string, string>;

/** `[label]: destination`, possibly inside a quote or a list item. */
const DEFINITION =
  /^[\s>]*(?:(?:[-*+]|\d{1,9}[.)])\s+)?\[((?:[^\\[\]]|\\.){1,999})\]:[ \t]*(<(?:[^\\<>\n]|\\.)*>|\S+)/;

/**
 * Collects `[label]: url` definitions from lines of text (not code), so that
 * `[text][label]`, `[label]` and `![alt][label]` can be shown with their real
 * target. The first definition of a label wins, as in CommonMark.
 */
export function collectLinkDefinitions(lines: readonly string[]): LinkDefinitions {
  const definitions = new Map<string, string>();
  for (const line of lines) {
    if (!line.includes("]:")) continue;
    const match = DEFINITION.exec(line);
    if (match === null) continue;
    const label = normalizeLinkLabel(match[1] ?? "");
    const raw = match[2] ?? "";
    const destination = raw.startsWith("<") ? raw.slice(1, -1) : raw;
    // `[^1]: …` defines a footnote, not a link.
    if (label !== "" && !label.startsWith("^") && !definitions.has(label))
      definitions.set(label, destination);
  }
  return definitions;
}

/** CommonMark's label matching: case-folded, inner whitespace collapsed. */
export function normalizeLinkLabel(label: string): string {
  return label.trim().replace(/\s+/g, " ").toLowerCase();
}
