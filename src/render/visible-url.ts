import { escapeCodeSpan } from "./escape-code-span.js";

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
