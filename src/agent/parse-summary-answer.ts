/*
 * A model's summary of a pull request, read as data: a few lines of what the change does and
 * its files grouped by what they do. Everything in it is the model's (and so, through the PR
 * text it read, possibly the author's): bounded, stripped of links, and never a verdict.
 */

/** What a summary may hold, and what an answer may be before it is refused as over-long. */
export const SUMMARY_LIMITS = {
  answerChars: 8_000,
  lines: 5,
  lineChars: 240,
  groups: 8,
  labelChars: 60,
} as const;

export interface FileGroup {
  label: string;
  /** Changed files only, each in at most one group, in the order the model named them. */
  files: string[];
}

export interface ChangeSummary {
  lines: string[];
  groups: FileGroup[];
  /** Lines left out because they claimed a verdict (the verdict is computed, never the model's). */
  verdictLinesDropped: number;
}

export type SummaryParse = { ok: true; summary: ChangeSummary } | { ok: false; problem: string };

/**
 * A line that claims an outcome of the review: approval, "no issues", safe to merge. The
 * summary describes the change; whether it has problems is the consensus's to say.
 */
const VERDICT_CLAIM =
  /\b(?:approv\w*|lgtm|verdict|merge[- ]?(?:able|ready)|ready to (?:merge|ship)|safe to (?:merge|ship|deploy)|(?:no|zero|without) (?:\w+ )?(?:issues?|problems?|bugs?|findings?|concerns?|vulnerabilit\w*|defects?)|looks? (?:good|fine|correct|great)|nothing to (?:fix|flag|report)|(?:is|are) (?:correct|safe|clean|secure|bug-?free)|bug-?free|well[- ]tested|should (?:be merged|pass))\b/i;
/** Bare URLs and autolinks: a description of the change links nowhere. */
const URL = /\b(?:[a-z][a-z0-9+.-]*:\/\/|www\.)\S*/gi;

/**
 * Reads the `SUMMARY:` and `FILES:` sections of a summary answer. Refuses an answer over
 * SUMMARY_LIMITS.answerChars, one without a summary line, and one whose every line claimed a
 * verdict; a group naming no changed file is left out.
 */
export function parseSummaryAnswer(text: string, changed: readonly string[]): SummaryParse {
  if (text.length > SUMMARY_LIMITS.answerChars) {
    return { ok: false, problem: `the answer was over ${SUMMARY_LIMITS.answerChars} characters` };
  }
  const known = new Set(changed);
  const placed = new Set<string>();
  const lines: string[] = [];
  const groups: FileGroup[] = [];
  let section: "none" | "summary" | "files" = "none";
  let dropped = 0;
  for (const raw of text.replace(/\r\n?/g, "\n").split("\n")) {
    let line = raw.trim();
    // `SUMMARY:`, `## Files`, `**Summary:** text on the same line`.
    const heading =
      /^(?:#+\s*)?\**\s*(summary|files)\s*\**\s*:\s*\**\s*(.*)$|^(?:#+\s*)?\**\s*(summary|files)\s*\**$/i.exec(
        line,
      );
    if (heading !== null) {
      const name = (heading[1] ?? heading[3] ?? "").toLowerCase();
      section = name === "summary" ? "summary" : "files";
      line = heading[2] ?? "";
    }
    // A bullet, a number, or a plain line: models format lists as they like.
    const item = (/^(?:[-*•]|\d+[.)])\s+(.*)$/.exec(line)?.[1] ?? line).trim();
    if (item === "" || /^`{3,}/.test(item)) continue;
    if (section === "summary") {
      if (VERDICT_CLAIM.test(item)) dropped++;
      else if (lines.length < SUMMARY_LIMITS.lines) lines.push(cleanLine(item));
    } else if (section === "files" && groups.length < SUMMARY_LIMITS.groups) {
      const group = fileGroup(item, known, placed);
      if (group === "verdict") dropped++;
      else if (group !== null) groups.push(group);
    }
  }
  if (lines.length === 0) {
    return {
      ok: false,
      problem:
        dropped > 0
          ? "the answer stated a verdict instead of describing the change"
          : "the answer had no SUMMARY section with a line of description",
    };
  }
  return { ok: true, summary: { lines, groups, verdictLinesDropped: dropped } };
}

/** `label: path, path` with only changed files not placed yet; null when none is left. */
function fileGroup(
  item: string,
  known: ReadonlySet<string>,
  placed: Set<string>,
): FileGroup | "verdict" | null {
  const colon = item.indexOf(":");
  if (colon <= 0) return null;
  const label = item.slice(0, colon);
  if (VERDICT_CLAIM.test(label)) return "verdict";
  const files = item
    .slice(colon + 1)
    .split(/[,\s]+/)
    .map((path) => path.replace(/^[`'"]+|[`'",;.]+$/g, ""))
    .filter((path) => {
      // Each changed file once, in the first group that names it.
      if (!known.has(path) || placed.has(path)) return false;
      placed.add(path);
      return true;
    });
  if (files.length === 0) return null;
  return { label: cleanLine(label, SUMMARY_LIMITS.labelChars), files };
}

function cleanLine(text: string, max: number = SUMMARY_LIMITS.lineChars): string {
  // Bold markers a model adds out of habit would show as asterisks once escaped.
  const flat = text
    .replace(URL, "(link removed)")
    .replace(/\*\*|__/g, "")
    .replace(/\s+/g, " ")
    .trim();
  if (flat.length <= max) return flat;
  let end = max - 1;
  const code = flat.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${flat.slice(0, end)}…`;
}
