import {
  type LinkDefinitions,
  normalizeLinkLabel,
  parseLinkDestination,
  visibleUrl,
} from "./links.js";
import { breakCommentOpeners, flattenText, neutralizeMentions } from "./text.js";

/* One line of untrusted markdown, and one untrusted value as inline markdown (escapeInline). */

export interface LineEscapeOptions {
  /** Inside a table cell: every `|` becomes `\|`, code spans included (GFM unescapes them). */
  tableCell?: boolean;
  /**
   * The line may be a row of a table in the text: GFM splits rows at `|` before
   * it sees code spans, so a code span must not be trusted across a `|`.
   */
  pipesSplitCodeSpans?: boolean;
  /** Keep `<br>` when text follows it on the line (it cannot start an HTML block there). */
  keepLineBreaks?: boolean;
  /** Template text follows the line: a trailing backslash must not escape it. */
  embedded?: boolean;
  /** `[label]: url` definitions of the whole text, to show reference links' real targets. */
  definitions?: LinkDefinitions;
}

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const LINE_BREAK_TAG = /^<br\s*\/?>/i;
/** An `<img …>` tag on one line; `[^<>]` keeps every attempt from scanning past the next tag. */
const IMAGE_TAG = /<img\b[^<>]*>/iy;
/** An index array with no entry: every lookup falls back to "none". */
const NONE = new Int32Array(0);
/** What after a `]` makes a link, a reference or a definition (`](`, `][`, `]:`). */
const LINK_CONTINUATION = /^[([:]$/;
const IMAGE_SOURCE = /\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;

/** A link or an image we recognised: where its label closes and where the whole ends. */
interface LinkSyntax {
  close: number;
  end: number;
  destination: string;
}

/**
 * Escapes one line of markdown text (not code) so it renders as written but can
 * open no HTML (every `<` becomes `&lt;`), ping no one, leave no backtick unpaired,
 * load no image and hide no link target: `![alt](url)` and `<img src=url>` become
 * `[image removed: url]`, `[text](url)` (inline or by reference) becomes
 * `text (url)` with the real URL visible, and every other bracket that could still
 * make a link (`](`, `][`, `]:`, or one left unpaired on the line) is escaped, so no
 * link syntax survives. Code spans closed on the same line are kept verbatim.
 */
export function escapeMarkdownLine(line: string, options: LineEscapeOptions = {}): string {
  // Most lines have no backtick or bracket: they skip the index arrays altogether.
  const spans = line.includes("`") ? codeSpans(line, options) : NONE;
  const brackets = line.includes("[") ? matchBrackets(line, spans) : NONE;
  let spanStartsBefore: Int32Array | null = null;
  const crossesCodeSpan = (from: number, to: number) => {
    spanStartsBefore ??= prefixCounts(spans);
    return (spanStartsBefore[to] ?? 0) - (spanStartsBefore[from] ?? 0) > 0;
  };
  const linkAt = (open: number): LinkSyntax | null => {
    const link = parseLink(line, open, brackets, options.definitions, crossesCodeSpan);
    // On a table row GFM splits cells at `|` before it sees links: no link spans a pipe.
    if (link === null || (options.pipesSplitCodeSpans && line.slice(open, link.end).includes("|")))
      return null;
    return link;
  };
  const urlOf = (destination: string) =>
    visibleUrl(destination, { tableCell: options.tableCell ?? false });

  const keptClosers = new Set<number>();
  /** Closing `]` of a link being rewritten → what replaces `](…)` and where to go on. */
  const pendingClosers = new Map<number, { url: string; resume: number }>();
  let output = "";
  let plain = "";
  const emit = (markdown: string) => {
    output += neutralizeMentions(plain) + markdown;
    plain = "";
  };
  let index = 0;
  while (index < line.length) {
    const closer = pendingClosers.size === 0 ? undefined : pendingClosers.get(index);
    if (closer !== undefined) {
      plain += " (";
      emit(closer.url);
      plain += ")";
      index = closer.resume;
      continue;
    }
    const spanEnd = spans[index] ?? 0;
    if (spanEnd !== 0) {
      const span = breakCommentOpeners(line.slice(index, spanEnd));
      emit(options.tableCell ? span.replaceAll("|", "\\|") : span);
      index = spanEnd;
      continue;
    }
    const character = line.charAt(index);
    if (character === "\\") {
      const next = line.charAt(index + 1);
      if (next !== "" && ASCII_PUNCTUATION.test(next)) {
        // `\<` renders as `<` anyway; as `&lt;` the raw body holds no `<` outside code.
        plain += next === "<" ? "&lt;" : character + next;
        index += 2;
      } else {
        plain += next === "" && options.embedded ? "\\\\" : character;
        index += 1;
      }
      continue;
    }
    if (character === "`") {
      const run = runLength(line, index);
      plain += "\\`".repeat(run);
      index += run;
      continue;
    }
    if (character === "!" && line.charAt(index + 1) === "[") {
      const image = linkAt(index + 1);
      if (image !== null) {
        plain += "\\[image removed: ";
        emit(urlOf(image.destination));
        plain += "\\]";
        index = image.end;
        continue;
      }
    }
    if (character === "[") {
      const link = linkAt(index);
      const close = brackets[index] ?? -1;
      if (link !== null) {
        // The label is escaped as the scan goes on; its `]` is replaced by the real target.
        pendingClosers.set(link.close, { url: urlOf(link.destination), resume: link.end });
      } else if (close !== -1 && !LINK_CONTINUATION.test(line.charAt(close + 1))) {
        // `array[i]`, `[ ]`: a pair that no `(`, `[` or `:` follows links nowhere, as
        // every definition it could refer to is escaped below.
        keptClosers.add(close);
        plain += character;
      } else {
        plain += "\\[";
      }
      index += 1;
      continue;
    }
    if (character === "]") {
      plain += keptClosers.has(index) ? character : "\\]";
      index += 1;
      continue;
    }
    if (character === "<") {
      IMAGE_TAG.lastIndex = index;
      const imageTag = IMAGE_TAG.exec(line);
      if (imageTag !== null) {
        const source = IMAGE_SOURCE.exec(imageTag[0]);
        const url = source === null ? null : (source[1] ?? source[2] ?? source[3] ?? "");
        if (url === null) {
          plain += "\\[image removed\\]";
        } else {
          plain += "\\[image removed: ";
          emit(urlOf(url));
          plain += "\\]";
        }
        index += imageTag[0].length;
        continue;
      }
      const tag = options.keepLineBreaks ? LINE_BREAK_TAG.exec(line.slice(index, index + 8)) : null;
      if (tag !== null && line.slice(index + tag[0].length).trim() !== "") {
        plain += tag[0];
        index += tag[0].length;
      } else {
        plain += "&lt;";
        index += 1;
      }
      continue;
    }
    plain += character === "|" && options.tableCell ? "\\|" : character;
    index += 1;
  }
  emit("");
  return output;
}

/**
 * A link (or, after a `!`, an image) whose label opens at `open`: inline
 * `[text](url "title")`, full `[text][label]`, collapsed `[label][]` or shortcut
 * `[label]` when the text defines the label. Null when it is none of these.
 */
function parseLink(
  line: string,
  open: number,
  brackets: Int32Array,
  definitions: LinkDefinitions | undefined,
  crossesCodeSpan: (from: number, to: number) => boolean,
): LinkSyntax | null {
  const close = brackets[open] ?? -1;
  if (close === -1) return null;
  if (line.charAt(close + 1) === "(") {
    const tail = parseLinkDestination(line, close + 1);
    if (tail !== null && !crossesCodeSpan(close + 1, tail.end)) {
      return { close, end: tail.end, destination: tail.destination };
    }
  }
  if (definitions === undefined || definitions.size === 0) return null;
  const text = line.slice(open + 1, close);
  const referenceClose = line.charAt(close + 1) === "[" ? (brackets[close + 1] ?? -1) : -1;
  if (referenceClose !== -1) {
    const label = line.slice(close + 2, referenceClose);
    const destination = definitions.get(normalizeLinkLabel(label === "" ? text : label));
    return destination === undefined ? null : { close, end: referenceClose + 1, destination };
  }
  // `[label]:` is the definition itself, escaped where it stands.
  if (line.charAt(close + 1) === ":") return null;
  const destination = definitions.get(normalizeLinkLabel(text));
  return destination === undefined ? null : { close, end: close + 1, destination };
}

/**
 * Code spans closed on the line (spans[start] = end, 0 elsewhere), found the way the
 * escaping always has: backslash pairs skipped, a run closed by the next run of the
 * same length. Typed arrays, not maps: this runs on every character of every lens text.
 */
function codeSpans(line: string, options: LineEscapeOptions): Int32Array {
  const closers = codeSpanClosers(line);
  const spans = new Int32Array(line.length + 1);
  let index = 0;
  while (index < line.length) {
    const character = line.charAt(index);
    if (character === "\\") {
      const next = line.charAt(index + 1);
      index += next !== "" && ASCII_PUNCTUATION.test(next) ? 2 : 1;
      continue;
    }
    if (character !== "`") {
      index += 1;
      continue;
    }
    const run = runLength(line, index);
    const end = closers.next(index, run);
    const content = end === -1 ? "" : line.slice(index + run, end);
    if (end !== -1 && !(options.pipesSplitCodeSpans && content.includes("|"))) {
      spans[index] = end + run;
      index = end + run;
    } else {
      index += run;
    }
  }
  return spans;
}

/** Each unescaped `[` outside code spans → its matching `]` (-1: none), in one pass with a stack. */
function matchBrackets(line: string, spans: Int32Array): Int32Array {
  const matches = new Int32Array(line.length + 1).fill(-1);
  const open: number[] = [];
  let index = 0;
  while (index < line.length) {
    const spanEnd = spans[index] ?? 0;
    if (spanEnd !== 0) {
      index = spanEnd;
      continue;
    }
    const character = line.charAt(index);
    if (character === "\\") {
      const next = line.charAt(index + 1);
      index += next !== "" && ASCII_PUNCTUATION.test(next) ? 2 : 1;
      continue;
    }
    if (character === "[") open.push(index);
    if (character === "]") {
      const start = open.pop();
      if (start !== undefined) matches[start] = index;
    }
    index += 1;
  }
  return matches;
}

/** counts[i] = code spans starting before index i. */
function prefixCounts(spans: Int32Array): Int32Array {
  const counts = new Int32Array(spans.length + 1);
  for (let index = 0; index < spans.length; index += 1) {
    counts[index + 1] = (counts[index] ?? 0) + ((spans[index] ?? 0) !== 0 ? 1 : 0);
  }
  return counts;
}

function runLength(line: string, start: number): number {
  let end = start;
  while (line.charAt(end) === "`") end += 1;
  return end - start;
}

/**
 * Finds, for a backtick run, the next run of exactly the same length (CommonMark's
 * closing rule) in amortised constant time, so a line of stray backticks stays linear.
 */
function codeSpanClosers(line: string): { next(start: number, length: number): number } {
  const startsByLength = new Map<number, number[]>();
  let index = line.indexOf("`");
  while (index !== -1) {
    const run = runLength(line, index);
    const starts = startsByLength.get(run) ?? [];
    starts.push(index);
    startsByLength.set(run, starts);
    index = line.indexOf("`", index + run);
  }
  const cursors = new Map<number, number>();
  return {
    next(start, length) {
      const starts = startsByLength.get(length) ?? [];
      let cursor = cursors.get(length) ?? 0;
      while (cursor < starts.length && (starts[cursor] ?? Infinity) <= start) cursor += 1;
      cursors.set(length, cursor);
      return starts[cursor] ?? -1;
    },
  };
}

export interface InlineEscapeOptions {
  /** UTF-16 code units kept before escaping; longer text ends with `…`. */
  maxLength?: number;
  /** A GFM table cell: `|` is escaped too. */
  tableCell?: boolean;
}

export const DEFAULT_INLINE_LENGTH = 300;

/**
 * Untrusted text (a finding title, a failure reason) as one line of markdown:
 * inline formatting and code spans kept, no line break, no HTML, no mention.
 */
export function escapeInline(text: string, options: InlineEscapeOptions = {}): string {
  const flat = flattenText(text, options.maxLength ?? DEFAULT_INLINE_LENGTH);
  return escapeMarkdownLine(flat, { tableCell: options.tableCell ?? false, embedded: true });
}
