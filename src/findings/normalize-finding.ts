import { type Confidence, LensFinding, MAX_SUGGESTION_CHARS, type Severity } from "./schema.js";

const SEVERITY_ALIASES: Record<string, Severity> = {
  high: "high",
  critical: "high",
  blocker: "high",
  major: "high",
  severe: "high",
  serious: "high",
  error: "high",
  medium: "medium",
  moderate: "medium",
  med: "medium",
  warning: "medium",
  warn: "medium",
  low: "low",
  minor: "low",
  small: "low",
  nit: "nit",
  nitpick: "nit",
  trivial: "nit",
  info: "nit",
  informational: "nit",
  note: "nit",
  style: "nit",
};

const CONFIDENCE_ALIASES: Record<string, Confidence> = {
  high: "high",
  certain: "high",
  confirmed: "high",
  medium: "medium",
  moderate: "medium",
  med: "medium",
  low: "low",
  uncertain: "low",
  speculative: "low",
};

/** Keys compared without case, `_` or `-`: `end_line`, `endLine` and `end-line` are one key. */
const KEY_ALIASES: Record<string, string> = {
  file: "file",
  path: "file",
  filename: "file",
  filepath: "file",
  location: "location",
  line: "line",
  lines: "line",
  startline: "line",
  linestart: "line",
  linenumber: "line",
  endline: "endLine",
  lineend: "endLine",
  severity: "severity",
  level: "severity",
  priority: "severity",
  confidence: "confidence",
  certainty: "confidence",
  title: "title",
  summary: "title",
  headline: "title",
  issue: "title",
  body: "body",
  description: "body",
  detail: "body",
  details: "body",
  message: "body",
  explanation: "body",
  rationale: "body",
  lens: "lens",
  outsidelens: "lens",
  suggestion: "suggestion",
  suggestedcode: "suggestion",
  suggestedchange: "suggestion",
  replacement: "suggestion",
};

/**
 * A finding, with the lens its entry named when it named one (read by outside-lens.ts), or why
 * the entry could not be used.
 */
export type NormalizeResult =
  | { finding: LensFinding; lens?: string; note?: string }
  | { problem: string };

/** Turns one raw block entry into a finding, or says why it cannot. Never guesses a location. */
export function normalizeFinding(raw: unknown, index: number): NormalizeResult {
  const where = `finding ${index + 1}`;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { problem: `${where}: not an object` };
  }
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const canonical = KEY_ALIASES[key.toLowerCase().replace(/[_-]/g, "")];
    if (canonical !== undefined && fields[canonical] === undefined) fields[canonical] = value;
  }

  let fileText = typeof fields.file === "string" ? fields.file : undefined;
  let lineValue = fields.line;
  if (fileText === undefined && typeof fields.location === "string") fileText = fields.location;
  if (fileText !== undefined && lineValue === undefined) {
    // "src/a.ts:12" or "src/a.ts:12-14" in the file field.
    const match = /^(.*?):(\d+(?:\s*[-–]\s*\d+)?)$/.exec(fileText.trim());
    if (match) {
      fileText = match[1];
      lineValue = match[2];
    }
  }
  const file = normalizePath(fileText);
  if (file === null) return { problem: `${where}: missing or invalid "file"` };

  const lines = parseLines(lineValue, fields.endLine);
  if (lines === null) return { problem: `${where} (${file}): missing or invalid "line"` };

  const severity = lookup(SEVERITY_ALIASES, fields.severity);
  if (severity === null) {
    return {
      problem: `${where} (${file}:${lines.line}): unknown severity ${describe(fields.severity)}`,
    };
  }
  const confidence = lookup(CONFIDENCE_ALIASES, fields.confidence ?? "medium");
  if (confidence === null) {
    return {
      problem: `${where} (${file}:${lines.line}): unknown confidence ${describe(fields.confidence)}`,
    };
  }
  const title = typeof fields.title === "string" ? fields.title.trim() : "";
  const body = typeof fields.body === "string" ? fields.body.trim() : "";
  if (title === "" && body === "") {
    return { problem: `${where} (${file}:${lines.line}): no title or body` };
  }
  const suggestion = readSuggestion(fields.suggestion);
  const parsed = LensFinding.safeParse({
    file,
    line: lines.line,
    endLine: lines.endLine,
    severity,
    confidence,
    title: title === "" ? firstSentence(body) : title,
    body,
    ...(typeof suggestion === "string" ? { suggestion } : {}),
  });
  if (!parsed.success) {
    return { problem: `${where}: ${parsed.error.issues[0]?.message ?? "invalid"}` };
  }
  // A suggestion that cannot be used costs the finding nothing: it is kept without one, said.
  const note =
    typeof suggestion === "object"
      ? { note: `suggestion left out (${where}, ${file}:${lines.line}): ${suggestion.problem}` }
      : {};
  return typeof fields.lens === "string" && fields.lens.trim() !== ""
    ? { finding: parsed.data, lens: fields.lens, ...note }
    : { finding: parsed.data, ...note };
}

/**
 * A finding's `suggestion`: a string, unwrapped from one ```` ``` ```` fence around it (a model
 * writing it as markdown; the contract asks for none). Absent (undefined) when the entry has none
 * or null; a problem when it cannot be replacement text.
 */
function readSuggestion(value: unknown): string | undefined | { problem: string } {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") return { problem: "not a string" };
  if (value.length > MAX_SUGGESTION_CHARS) {
    return { problem: `longer than ${MAX_SUGGESTION_CHARS} characters` };
  }
  const fenced = /^\s*(`{3,}|~{3,})[^\n`]*\r?\n([\s\S]*?)\r?\n?\1\s*$/.exec(value);
  return fenced === null ? value : (fenced[2] ?? "");
}

function normalizePath(value: string | undefined): string | null {
  if (value === undefined) return null;
  let path = value.trim().replace(/^`|`$/g, "").replace(/\\/g, "/");
  path = path.replace(/^(?:\.\/)+/, "");
  path = path.replace(/^[ab]\//, "");
  path = path.replace(/^\/+/, "");
  if (path === "" || path.split("/").some((part) => part === "..")) return null;
  return path;
}

function parseLines(
  lineValue: unknown,
  endValue: unknown,
): { line: number; endLine: number } | null {
  const range = toRange(lineValue);
  if (range === null) return null;
  const explicitEnd = toRange(endValue)?.start;
  const end = explicitEnd ?? range.end;
  return { line: range.start, endLine: Math.max(range.start, end) };
}

function toRange(value: unknown): { start: number; end: number } | null {
  if (typeof value === "number") {
    return Number.isInteger(value) && value > 0 ? { start: value, end: value } : null;
  }
  if (Array.isArray(value) && value.length > 0) {
    const start = toRange(value[0]);
    const end = toRange(value[value.length - 1]);
    return start && end ? { start: start.start, end: end.end } : null;
  }
  if (typeof value !== "string") return null;
  const match = /^\s*L?(\d+)(?:\s*(?:[-–:]|\.\.)\s*L?(\d+))?\s*$/i.exec(value);
  if (!match) return null;
  const start = Number(match[1]);
  const end = match[2] === undefined ? start : Number(match[2]);
  return start > 0 ? { start, end: Math.max(start, end) } : null;
}

function lookup<T>(aliases: Record<string, T>, value: unknown): T | null {
  if (typeof value !== "string") return null;
  return aliases[value.trim().toLowerCase()] ?? null;
}

function describe(value: unknown): string {
  return value === undefined ? "(missing)" : JSON.stringify(value).slice(0, 40);
}

function firstSentence(text: string): string {
  const line = text.split("\n")[0] ?? "";
  const sentence = /^(.{1,160}?[.!?])(?:\s|$)/.exec(line)?.[1] ?? line.slice(0, 160);
  return sentence.trim();
}
