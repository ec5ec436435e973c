import type { HeadFile } from "./head-file.js";

/** Lines of the head read to tell whether it indents with tabs or spaces. */
const STYLE_SAMPLE_LINES = 2_000;

/**
 * Why the replacement is not indented as the code it goes into, or null: its first written line
 * must start at the column of the first written line it replaces (a suggestion that lost its
 * indentation, a top pain of suggestions), and no line may indent with spaces where the file
 * indents with tabs, or with tabs where it indents with spaces.
 */
export function indentationProblem(
  lines: readonly string[],
  original: readonly string[],
  head: HeadFile,
  line: number,
): string | null {
  const firstWritten = lines.findIndex((text) => text.trim() !== "");
  if (firstWritten === -1) return null;
  const originalAt = original.findIndex((text) => text.trim() !== "");
  if (originalAt !== -1) {
    const want = leading(original[originalAt] ?? "");
    const got = leading(lines[firstWritten] ?? "");
    if (want !== got) {
      return `its first line is indented by ${describe(got)} where line ${line + originalAt} is indented by ${describe(want)}.`;
    }
  }
  const style = indentStyle(head);
  if (style === null) return null;
  const wrong = lines.findIndex((text) => {
    if (text.trim() === "") return false;
    const indent = leading(text);
    return style === "tabs" ? indent.startsWith("  ") : indent.includes("\t");
  });
  if (wrong === -1) return null;
  return style === "tabs"
    ? `its line ${wrong + 1} is indented with spaces where the file indents with tabs.`
    : `its line ${wrong + 1} is indented with tabs where the file indents with spaces.`;
}

function leading(text: string): string {
  return /^[ \t]*/.exec(text)?.[0] ?? "";
}

/** How the head indents, by the first character of its indented lines: null when it cannot tell. */
function indentStyle(head: HeadFile): "tabs" | "spaces" | null {
  let tabs = 0;
  let spaces = 0;
  for (const text of head.lines.slice(0, STYLE_SAMPLE_LINES)) {
    if (text.startsWith("\t")) tabs++;
    else if (text.startsWith("  ")) spaces++;
  }
  if (tabs === spaces) return null;
  return tabs > spaces ? "tabs" : "spaces";
}

/** "4 spaces", "2 tabs", "nothing", "1 tab and 2 spaces". */
function describe(indent: string): string {
  if (indent === "") return "nothing";
  const tabs = [...indent].filter((character) => character === "\t").length;
  const spaces = indent.length - tabs;
  const parts = [
    ...(tabs > 0 ? [`${tabs} tab${tabs === 1 ? "" : "s"}`] : []),
    ...(spaces > 0 ? [`${spaces} space${spaces === 1 ? "" : "s"}`] : []),
  ];
  return parts.join(" and ");
}
