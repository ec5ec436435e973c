import type Handlebars from "handlebars";
import { fenceCode, fenceDiff } from "./escape/code-fence.js";
import { fencedBlock } from "./escape/fence.js";
import { safeUrl } from "./escape/links.js";
import { escapeCodeSpan, escapeHtml, escapePlainText } from "./escape/literal.js";
import { escapeMarkdownBlock } from "./escape/markdown-block.js";
import { escapeInline } from "./escape/markdown-line.js";
import { formatCount, formatLocation } from "./format.js";

/**
 * The markdown-aware helpers templates escape with. Templates are compiled with
 * `noEscape` (HTML-escaping would mangle markdown), so every untrusted value goes
 * through one of these:
 *
 * - `{{inline text [max]}}` one line of markdown; `{{cell text [max]}}` the same in a table cell
 * - `{{plain text [max]}}` one line of plain words: no markdown at all (a model's summary)
 * - `{{code text [max]}}` / `{{codeCell text [max]}}` a code span (paths, ids)
 * - `{{where file line endLine}}` / `{{whereCell …}}` `` `file:12-14` ``
 * - `{{html text [max]}}` text inside raw HTML such as `<summary>`
 * - `{{block text}}` multi-line markdown (lens text); `{{listItem text}}` the same as a `- ` item
 * - `{{whereLink file line endLine url}}` `{{where}}` as a link to `url` (the code at the head
 *   SHA) when it is http(s); `cell=true` in a table
 * - `{{fence text}}` multi-line text verbatim in a code fence nothing inside can close
 * - `{{link url label}}` ` · [label](url)` or nothing when the URL is not http(s)
 * - `{{plural count "finding"}}` `1 finding`, `2 findings`; `{{count n}}` `12,345`
 * - `{{suggestionBlock lines}}` a ```suggestion block holding checked lines exactly, its fence
 *   longer than any backtick run inside; `{{diffBlock original lines}}` a ```diff for reading
 */
export function registerHelpers(handlebars: typeof Handlebars): void {
  handlebars.registerHelper("inline", (text: unknown, ...rest: unknown[]) =>
    escapeInline(String(text ?? ""), maxLength(rest)),
  );
  handlebars.registerHelper("cell", (text: unknown, ...rest: unknown[]) =>
    escapeInline(String(text ?? ""), { ...maxLength(rest), tableCell: true }),
  );
  handlebars.registerHelper("plain", (text: unknown, ...rest: unknown[]) =>
    escapePlainText(String(text ?? ""), maxLength(rest).maxLength),
  );
  handlebars.registerHelper("code", (text: unknown, ...rest: unknown[]) =>
    escapeCodeSpan(String(text ?? ""), maxLength(rest)),
  );
  handlebars.registerHelper("codeCell", (text: unknown, ...rest: unknown[]) =>
    escapeCodeSpan(String(text ?? ""), { ...maxLength(rest), tableCell: true }),
  );
  handlebars.registerHelper("where", (file: unknown, line: unknown, endLine: unknown) =>
    escapeCodeSpan(formatLocation(String(file), Number(line), Number(endLine))),
  );
  handlebars.registerHelper("whereCell", (file: unknown, line: unknown, endLine: unknown) =>
    escapeCodeSpan(formatLocation(String(file), Number(line), Number(endLine)), {
      tableCell: true,
    }),
  );
  handlebars.registerHelper(
    "whereLink",
    (file: unknown, line: unknown, endLine: unknown, url: unknown, options: unknown) => {
      const tableCell = (options as { hash?: { cell?: unknown } }).hash?.cell === true;
      const where = escapeCodeSpan(formatLocation(String(file), Number(line), Number(endLine)), {
        tableCell,
      });
      const safe = typeof url === "string" ? safeUrl(url) : null;
      return safe === null ? where : `[${where}](${safe})`;
    },
  );
  handlebars.registerHelper("fence", (text: unknown) => fencedBlock(String(text ?? "")));
  handlebars.registerHelper("html", (text: unknown, ...rest: unknown[]) =>
    escapeHtml(String(text ?? ""), maxLength(rest).maxLength),
  );
  handlebars.registerHelper("block", (text: unknown) => escapeMarkdownBlock(String(text ?? "")));
  handlebars.registerHelper("listItem", (text: unknown) =>
    escapeMarkdownBlock(String(text ?? ""))
      .split("\n")
      .map((line, index) => (index === 0 || line.trim() === "" ? line : `  ${line}`))
      .join("\n"),
  );
  handlebars.registerHelper("link", (url: unknown, label: unknown) => {
    const safe = typeof url === "string" ? safeUrl(url) : null;
    return safe === null ? "" : ` · [${escapeInline(String(label ?? "link"))}](${safe})`;
  });
  handlebars.registerHelper("plural", (count: unknown, singular: unknown, ...rest: unknown[]) => {
    const number = Number(count);
    const plural = typeof rest[0] === "string" ? rest[0] : `${String(singular)}s`;
    return `${formatCount(number)} ${number === 1 ? String(singular) : plural}`;
  });
  handlebars.registerHelper("count", (count: unknown) => formatCount(Number(count)));
  handlebars.registerHelper("suggestionBlock", (lines: unknown) =>
    fenceCode(stringLines(lines), "suggestion"),
  );
  handlebars.registerHelper("diffBlock", (original: unknown, lines: unknown) =>
    fenceDiff(stringLines(original), stringLines(lines)),
  );
}

function stringLines(value: unknown): string[] {
  return Array.isArray(value) ? value.map((line) => String(line)) : [];
}

/** The optional trailing length argument; Handlebars always appends its options object. */
function maxLength(rest: unknown[]): { maxLength?: number } {
  const first = rest[0];
  return typeof first === "number" ? { maxLength: first } : {};
}
