import { COMMAND_SPECS, type CommandName, type CommandSpec } from "./command-specs.js";
import { wrapText } from "./wrap-text.js";

/** The flag column is this wide at most; a longer flag puts its text on the next line. */
const MAX_TERM_COLUMN = 22;

/**
 * `gadfly --help` (no command) or `gadfly help <command>`, wrapped to `width` columns (Infinity:
 * one line per paragraph and per option, for a pipe).
 */
export function helpText(command: CommandName | null, width: number): string {
  const spec = COMMAND_SPECS.find((candidate) => candidate.name === command);
  return spec === undefined ? globalHelp(width) : commandHelp(spec, width);
}

function globalHelp(width: number): string {
  const commands = COMMAND_SPECS.map((spec) => ({ term: spec.name, help: spec.summary }));
  return [
    "Usage: gadfly <command> [options]",
    "",
    paragraph(
      "Gadfly reviews a change adversarially with several models at once, each through five lenses, and reports what they agree on.",
      width,
    ),
    "",
    "Commands:",
    ...definitionList(commands, width),
    "",
    "Options:",
    ...definitionList(
      [
        { term: "-h, --help", help: "show this help, or a command's (gadfly review --help)" },
        { term: "--version", help: "show the version" },
      ],
      width,
    ),
    "",
    paragraph("Run `gadfly help <command>` for a command's options.", width),
    "",
  ].join("\n");
}

function commandHelp(spec: CommandSpec, width: number): string {
  return [
    paragraph(`Usage: gadfly ${spec.name} ${spec.synopsis}`, width, 2),
    "",
    ...spec.description.flatMap((text) => [paragraph(text, width), ""]),
    ...(spec.options.length === 0
      ? []
      : [
          "Options:",
          ...definitionList(
            [
              ...spec.options.map((option) => ({ term: option.flag, help: option.help })),
              { term: "-h, --help", help: "show this help" },
            ],
            width,
          ),
          "",
        ]),
    ...(spec.notes ?? []).flatMap((text) => [paragraph(text, width), ""]),
  ].join("\n");
}

function paragraph(text: string, width: number, hanging = 0): string {
  return wrapText(text, width, () => hanging);
}

/** `  term   help`, the help wrapped under itself, in a column as wide as the longest term. */
function definitionList(
  entries: readonly { term: string; help: string }[],
  width: number,
): string[] {
  const termWidth = Math.min(
    MAX_TERM_COLUMN,
    Math.max(...entries.map((entry) => entry.term.length)),
  );
  const column = 2 + termWidth + 2;
  return entries.map((entry) => {
    const head =
      entry.term.length > termWidth
        ? `  ${entry.term}\n${" ".repeat(column)}`
        : `  ${entry.term.padEnd(termWidth)}  `;
    const [first, second] = head.split("\n");
    const text = `${second ?? first}${entry.help}`;
    const wrapped = wrapText(text, width, () => column);
    return second === undefined ? wrapped : `${first}\n${wrapped}`;
  });
}
