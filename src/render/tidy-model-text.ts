import { VERDICT_LINE_RE } from "../findings/index.js";

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** An ATX heading of level 1 to 3: on GitHub as large as our comment's `##` title, or near. */
const LARGE_HEADING = /^ {0,3}#{1,3}(?:[ \t]|$)/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;

export interface TidyOptions {
  /** Drop every `VERDICT:` line: the lens's summary line already says its verdict. */
  dropVerdicts: boolean;
}

/**
 * Model text made to sit under our headings: a heading that would render as large as the
 * comment's title (`#`, `##`, `###`, or a setext `===` / `---` underline) becomes a bold line, and
 * with `dropVerdicts` the `VERDICT:` lines go. Code inside fences is left exactly as it is.
 * Escaping is not done here: the template's `{{block}}` still escapes the result.
 */
export function tidyModelText(text: string, options: TidyOptions): string {
  const lines = text.split(/\r?\n/);
  const kept: string[] = [];
  let fence: string | null = null;
  for (const line of lines) {
    if (fence !== null) {
      kept.push(line);
      const trimmed = line.trim();
      if (trimmed.length >= fence.length && [...trimmed].every((c) => c === fence?.[0])) {
        fence = null;
      }
      continue;
    }
    const opening = FENCE.exec(line);
    if (opening !== null) {
      fence = opening[1] ?? "```";
      kept.push(line);
      continue;
    }
    if (options.dropVerdicts && VERDICT_LINE_RE.test(line)) continue;
    kept.push(...tidyLine(line, kept.at(-1)));
  }
  return kept
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function tidyLine(line: string, previous: string | undefined): string[] {
  if (LARGE_HEADING.test(line)) {
    const title = withoutClosingHashes(line.trim().replace(/^#+/, "").trim());
    return title === "" ? [] : [`**${title}**`];
  }
  const underline = SETEXT_UNDERLINE.exec(line);
  if (underline !== null && previous !== undefined && previous.trim() !== "") {
    // Under a paragraph line it would make that line a heading: `===` goes, `---` becomes the
    // rule it looks like (a blank line before it stops it underlining).
    return (underline[1] ?? "").startsWith("=") ? [] : ["", line];
  }
  return [line];
}

/** A heading's optional closing run of `#` (after a space) removed, read from the end by hand. */
function withoutClosingHashes(text: string): string {
  let start = text.length;
  while (start > 0 && text[start - 1] === "#") start -= 1;
  if (start === text.length) return text;
  if (start === 0) return "";
  const before = text[start - 1];
  return before === " " || before === "\t" ? text.slice(0, start).trim() : text;
}
