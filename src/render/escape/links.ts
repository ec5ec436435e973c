import { escapeCodeSpan } from "./literal.js";

/*
 * Links in model text, read the way GitHub reads them, so every target can be shown as it is:
 * reference definitions, inline destinations, and the visible form of a URL.
 */

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

/** Past this many characters a `(…)` is not read as a link's target: the text stays literal. */
export const MAX_LINK_TAIL = 1_000;

const MAX_PARENTHESIS_DEPTH = 32;

export interface LinkTail {
  /** The destination as written (backslash escapes and entities not yet decoded). */
  destination: string;
  /** Index just past the closing `)`. */
  end: number;
}

/**
 * Reads an inline link's `(destination "title")` starting at `open` (a `(`), the
 * CommonMark way: an optional `<…>` or parenthesis-balanced destination, an optional
 * quoted or parenthesised title, then `)`. Null when it is not one. The scan never
 * goes past MAX_LINK_TAIL characters, so a line of many `](` stays linear.
 */
export function parseLinkDestination(line: string, open: number): LinkTail | null {
  if (line.charAt(open) !== "(") return null;
  const limit = Math.min(line.length, open + MAX_LINK_TAIL);
  let index = skipSpaces(line, open + 1, limit);
  let destination: string;
  if (line.charAt(index) === "<") {
    const start = index + 1;
    index = start;
    while (index < limit && line.charAt(index) !== ">") {
      const character = line.charAt(index);
      if (character === "<") return null;
      index += character === "\\" ? 2 : 1;
    }
    if (index >= limit) return null;
    destination = line.slice(start, index);
    index += 1;
  } else {
    const start = index;
    let depth = 0;
    while (index < limit) {
      const character = line.charAt(index);
      if (character === "\\") {
        index += 2;
        continue;
      }
      if (character === " " || character === "\t" || character === "\n") break;
      if (character === "(") {
        // cmark gives up past 32 nested parentheses; so do we, which also ends the scan early.
        depth += 1;
        if (depth > MAX_PARENTHESIS_DEPTH) return null;
      }
      if (character === ")") {
        if (depth === 0) break;
        depth -= 1;
      }
      index += 1;
    }
    if (depth !== 0 || index > limit) return null;
    destination = line.slice(start, index);
  }
  const afterDestination = index;
  index = skipSpaces(line, index, limit);
  const quote = line.charAt(index);
  if (index > afterDestination && (quote === '"' || quote === "'" || quote === "(")) {
    const closer = quote === "(" ? ")" : quote;
    index += 1;
    while (index < limit && line.charAt(index) !== closer) {
      index += line.charAt(index) === "\\" ? 2 : 1;
    }
    if (index >= limit) return null;
    index = skipSpaces(line, index + 1, limit);
  }
  if (index >= limit || line.charAt(index) !== ")") return null;
  return { destination, end: index + 1 };
}

function skipSpaces(line: string, from: number, limit: number): number {
  let index = from;
  while (index < limit && (line.charAt(index) === " " || line.charAt(index) === "\t")) index += 1;
  return index;
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  colon: ":",
  sol: "/",
  period: ".",
  commat: "@",
  lpar: "(",
  rpar: ")",
};
const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6})|([A-Za-z]{2,8}));/g;
const BACKSLASH_ESCAPE = /\\([!-/:-@[-`{-~])/g;
/** An `&` that a reader of the markdown could take for the start of an entity. */
const ENTITY_LIKE_AMPERSAND = /&(?=#?[A-Za-z0-9]{1,32};)/g;

export interface VisibleUrlOptions {
  /** Inside a GFM table cell: no raw `|`. */
  tableCell?: boolean;
}

/**
 * A link target written by a model, as markdown that shows the target itself:
 * an http(s) URL becomes an autolink `<https://…>` (what it says is where it goes;
 * credentials dropped, host in punycode), anything else (relative paths, `mailto:`,
 * `javascript:`, `data:`) a code span that links nowhere and pings no one.
 */
export function visibleUrl(destination: string, options: VisibleUrlOptions = {}): string {
  const decoded = decodeDestination(destination).trim();
  const web = webUrl(decoded);
  if (web !== null) return `<${web}>`;
  return escapeCodeSpan(decoded === "" ? "(empty link)" : decoded, {
    maxLength: 200,
    tableCell: options.tableCell ?? false,
  });
}

/** The URL a markdown reader would follow: backslash escapes and entities decoded. */
export function decodeDestination(destination: string): string {
  return destination
    .replace(ENTITY, (whole, decimal?: string, hex?: string, name?: string) => {
      if (name !== undefined) return NAMED_ENTITIES[name] ?? whole;
      const code = decimal !== undefined ? Number(decimal) : Number.parseInt(hex ?? "", 16);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "\uFFFD";
    })
    .replace(BACKSLASH_ESCAPE, "$1");
}

function webUrl(text: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return null;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return null;
  // `https://github.com@evil.example/` reads as GitHub and goes elsewhere: drop the credentials.
  parsed.username = "";
  parsed.password = "";
  // The serialiser percent-encodes spaces and angle brackets; a pipe would split a table
  // row and an `&x;` would be read as an entity, so those are encoded too.
  return parsed.href.replaceAll("|", "%7C").replace(ENTITY_LIKE_AMPERSAND, "%26");
}

/**
 * An http(s) URL made safe for a markdown link destination, or null. Links only
 * ever come from GitHub's API, but a stored value is checked rather than trusted.
 */
export function safeUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return null;
  // URL serialisation percent-encodes spaces, quotes and angle brackets; parentheses
  // are legal in URLs but would end a markdown link early.
  return parsed.href.replaceAll("(", "%28").replaceAll(")", "%29").replaceAll("`", "%60");
}
