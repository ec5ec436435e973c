import { parseArgs } from "node:util";
import { LensId } from "../config/index.js";
import { MAX_WINDOW_DAYS, parseRepository, parseWindow } from "../scoreboard/index.js";
import type {
  CliCommand,
  EvalCommandOptions,
  FailOn,
  OutputFormat,
  ReviewCommandOptions,
  StatsCommandOptions,
} from "./cli-command.js";
import { COMMAND_SPECS, type CommandName, optionName } from "./command-specs.js";
import { UsageError } from "./usage-error.js";

export interface ParseCliArgsContext {
  /** Whether stdout is a terminal: it decides the default `--format`. */
  isTty: boolean;
}

const OPTIONS = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
  base: { type: "string" },
  head: { type: "string" },
  repo: { type: "string" },
  models: { type: "string" },
  lenses: { type: "string" },
  config: { type: "string" },
  concurrency: { type: "string" },
  "no-verify": { type: "boolean" },
  format: { type: "string" },
  output: { type: "string" },
  "fail-on": { type: "string" },
  record: { type: "string" },
  replay: { type: "string" },
  demo: { type: "boolean" },
  "no-progress": { type: "boolean" },
  providers: { type: "string" },
  since: { type: "string" },
  dataset: { type: "string" },
  repos: { type: "string" },
  window: { type: "string" },
  limit: { type: "string" },
  resume: { type: "string" },
  judge: { type: "string" },
  "judge-cache": { type: "string" },
} as const;

type OptionName = keyof typeof OPTIONS;
type ParsedValues = { [name in OptionName]?: string | boolean | undefined };

const FORMATS: readonly OutputFormat[] = ["text", "markdown", "json", "sarif"];
const FAIL_ON: readonly FailOn[] = ["high", "medium"];
const MAX_CONCURRENCY = 64;
const HELP_HINT = "see gadfly --help";

/** The commands, and the options each accepts besides --help and --version: what its help lists. */
const COMMANDS = COMMAND_SPECS.map((spec) => spec.name);
const COMMAND_OPTIONS = new Map<CommandName, readonly OptionName[]>(
  COMMAND_SPECS.map((spec) => [spec.name, spec.options.map((option) => knownOption(option.flag))]),
);

/** A flag the help documents must be one parseArgs knows: a mismatch is our bug, said at load. */
function knownOption(flag: string): OptionName {
  const name = optionName(flag);
  if (!Object.hasOwn(OPTIONS, name)) throw new Error(`command-specs: ${flag} is not in OPTIONS`);
  return name as OptionName;
}
const DOCTOR_FORMATS = ["text", "json"] as const;
const STATS_FORMATS = ["text", "json", "csv"] as const;
const EVAL_FORMATS = ["text", "markdown", "json"] as const;
const DEFAULT_WINDOW = 3;
const MAX_WINDOW = 50;
const MAX_LIMIT = 100_000;

/** `--demo` brings its own change and recordings: these would contradict it. */
const DEMO_CONFLICTS: readonly OptionName[] = [
  "replay",
  "record",
  "repo",
  "base",
  "head",
  "config",
];

/**
 * Parses the command line (without the node and script arguments). Throws a UsageError with a
 * one-line message for anything wrong: unknown or repeated options, missing or bad values,
 * conflicting flags, an unknown command.
 */
export function parseCliArgs(argv: readonly string[], context: ParseCliArgsContext): CliCommand {
  const { values, positionals, tokens } = parseStrictly(argv);
  rejectRepeatedOptions(tokens);
  const [command, ...extra] = positionals;
  const known = command === undefined ? undefined : COMMANDS.find((name) => name === command);
  if (values.help === true || known === "help") {
    // `gadfly review --help`, `gadfly help review`, `gadfly --help`: the help of what is named.
    // `gadfly help --help` is help's own.
    const [named, stray] =
      known === "help"
        ? extra.length === 0 && values.help === true
          ? ["help"]
          : extra
        : [command, extra[0]];
    if (stray !== undefined) throw new UsageError(`unexpected argument ${quote(stray)}`);
    if (named === undefined) return { kind: "help", command: null };
    const topic = COMMANDS.find((name) => name === named);
    if (topic === undefined) throw new UsageError(`unknown command ${quote(named)} (${HELP_HINT})`);
    return { kind: "help", command: topic };
  }
  if (values.version === true) return { kind: "version" };
  if (command === undefined) {
    throw new UsageError(`missing command: expected ${commandList()} (${HELP_HINT})`);
  }
  if (known === undefined) {
    throw new UsageError(`unknown command ${quote(command)} (${HELP_HINT})`);
  }
  if (extra[0] !== undefined) throw new UsageError(`unexpected argument ${quote(extra[0])}`);
  for (const name of Object.keys(values) as OptionName[]) {
    if (
      name !== "help" &&
      name !== "version" &&
      !(COMMAND_OPTIONS.get(known) ?? []).includes(name)
    ) {
      throw new UsageError(`--${name} is not an option of "gadfly ${known}"`);
    }
  }
  if (known === "worker") return { kind: "worker", configPath: stringValue(values, "config") };
  if (known === "init") {
    return {
      kind: "init",
      options: {
        configPath: stringValue(values, "config"),
        providers: listValue(values, "providers", (item) =>
          /^[a-z][a-z0-9-]*$/.test(item) ? null : "a provider is lowercase letters, digits and '-'",
        ),
      },
    };
  }
  if (known === "doctor") {
    return {
      kind: "doctor",
      options: {
        configPath: stringValue(values, "config"),
        format: enumValue(values, "format", DOCTOR_FORMATS) ?? "text",
      },
    };
  }
  if (known === "stats") return { kind: "stats", options: statsOptions(values) };
  if (known === "eval") return { kind: "eval", options: evalOptions(values) };
  return { kind: "review", options: reviewOptions(values, context) };
}

/** `"review", "init" … or "worker"`: the commands that do something (help aside). */
function commandList(): string {
  const names = COMMANDS.filter((name) => name !== "help").map((name) => `"${name}"`);
  return `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

function statsOptions(values: ParsedValues): StatsCommandOptions {
  const since = stringValue(values, "since") ?? "30d";
  const sinceMs = parseWindow(since);
  if (sinceMs === null) {
    throw new UsageError(
      `--since must be hours, days or weeks such as 12h, 30d or 2w (at most ${MAX_WINDOW_DAYS} days); got ${quote(since)}`,
    );
  }
  const repo = stringValue(values, "repo");
  const repository = repo === null ? null : parseRepository(repo);
  if (repo !== null && repository === null) {
    throw new UsageError(`--repo must be owner/name; got ${quote(repo)}`);
  }
  return {
    sinceMs,
    since: since.trim(),
    repository,
    format: enumValue(values, "format", STATS_FORMATS) ?? "text",
    configPath: stringValue(values, "config"),
  };
}

function evalOptions(values: ParsedValues): EvalCommandOptions {
  if (values.record !== undefined && values.replay !== undefined) {
    throw new UsageError("--record and --replay cannot be used together");
  }
  const dataset = stringValue(values, "dataset");
  if (dataset === null) throw new UsageError(`"gadfly eval" needs --dataset FILE (${HELP_HINT})`);
  return {
    dataset,
    reposDir: stringValue(values, "repos"),
    window: wholeNumber(values, "window", 0, MAX_WINDOW) ?? DEFAULT_WINDOW,
    limit: wholeNumber(values, "limit", 1, MAX_LIMIT),
    resume: stringValue(values, "resume"),
    models: listValue(values, "models", (item) =>
      /\s/.test(item) ? "a model id cannot contain spaces" : null,
    ),
    lenses: listValue(values, "lenses", (item) =>
      LensId.safeParse(item).success ? null : "a lens id is lowercase letters, digits and '-'",
    ),
    configPath: stringValue(values, "config"),
    concurrency: concurrencyValue(values),
    format: enumValue(values, "format", EVAL_FORMATS) ?? "text",
    output: stringValue(values, "output"),
    recordDir: stringValue(values, "record"),
    replayDir: stringValue(values, "replay"),
    progress: values["no-progress"] !== true,
    judge: stringValue(values, "judge"),
    judgeCache: stringValue(values, "judge-cache"),
  };
}

function wholeNumber(
  values: ParsedValues,
  name: OptionName,
  min: number,
  max: number,
): number | null {
  const value = stringValue(values, name);
  if (value === null) return null;
  const number = /^\d{1,6}$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= min && number <= max)) {
    throw new UsageError(
      `--${name} must be a whole number from ${min} to ${max}; got ${quote(value)}`,
    );
  }
  return number;
}

function reviewOptions(values: ParsedValues, context: ParseCliArgsContext): ReviewCommandOptions {
  if (values.record !== undefined && values.replay !== undefined) {
    throw new UsageError("--record and --replay cannot be used together");
  }
  if (values.demo === true) {
    const conflict = DEMO_CONFLICTS.find((name) => values[name] !== undefined);
    if (conflict !== undefined) throw new UsageError(`--demo cannot be used with --${conflict}`);
  }
  const output = stringValue(values, "output");
  const format = enumValue(values, "format", FORMATS);
  return {
    base: refValue(values, "base"),
    head: refValue(values, "head"),
    repoPath: stringValue(values, "repo") ?? ".",
    models: listValue(values, "models", (item) =>
      /\s/.test(item) ? "a model id cannot contain spaces" : null,
    ),
    lenses: listValue(values, "lenses", (item) =>
      LensId.safeParse(item).success ? null : "a lens id is lowercase letters, digits and '-'",
    ),
    configPath: stringValue(values, "config"),
    concurrency: concurrencyValue(values),
    verify: values["no-verify"] !== true,
    // A file or a pipe gets markdown; colours and in-place layout are for a person at a terminal.
    format: format ?? (context.isTty && output === null ? "text" : "markdown"),
    output,
    failOn: enumValue(values, "fail-on", FAIL_ON),
    recordDir: stringValue(values, "record"),
    replayDir: stringValue(values, "replay"),
    demo: values.demo === true,
    progress: values["no-progress"] !== true,
  };
}

function parseStrictly(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      options: OPTIONS,
      strict: true,
      allowPositionals: true,
      tokens: true,
    });
  } catch (error) {
    throw translateParseError(error);
  }
}

/** node:util's messages are several sentences long; the user gets one short line. */
function translateParseError(error: unknown): Error {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const option = /'(-{1,2}[^' =]+)/.exec(message)?.[1] ?? "an option";
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    return new UsageError(`unknown option ${option} (${HELP_HINT})`);
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    return new UsageError(
      message.includes("does not take an argument")
        ? `${option} does not take a value`
        : `${option} needs a value`,
    );
  }
  return error instanceof Error ? error : new Error(message);
}

/** Without this, parseArgs silently keeps the last of two `--format` flags. */
function rejectRepeatedOptions(tokens: readonly { kind: string; name?: string }[]): void {
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== "option" || token.name === undefined) continue;
    if (seen.has(token.name)) throw new UsageError(`--${token.name} is given more than once`);
    seen.add(token.name);
  }
}

function stringValue(values: ParsedValues, name: OptionName): string | null {
  const value = values[name];
  if (typeof value !== "string") return null;
  if (value.trim() === "") throw new UsageError(`--${name} needs a value`);
  return value;
}

/** Refs are passed to git, where a leading dash would read as an option. */
function refValue(values: ParsedValues, name: OptionName): string | null {
  const value = stringValue(values, name);
  if (value !== null && (value.startsWith("-") || /[\s\0]/.test(value))) {
    throw new UsageError(`--${name}: ${quote(value)} is not a valid git ref`);
  }
  return value;
}

function listValue(
  values: ParsedValues,
  name: OptionName,
  problem: (item: string) => string | null,
): string[] | null {
  const value = stringValue(values, name);
  if (value === null) return null;
  const items = value.split(",").map((item) => item.trim());
  if (items.some((item) => item === "")) {
    throw new UsageError(`--${name}: empty item in ${quote(value)} (use a,b,c)`);
  }
  for (const item of items) {
    const reason = problem(item);
    if (reason !== null) throw new UsageError(`--${name}: ${quote(item)}: ${reason}`);
  }
  return [...new Set(items)];
}

function enumValue<Value extends string>(
  values: ParsedValues,
  name: OptionName,
  allowed: readonly Value[],
): Value | null {
  const value = stringValue(values, name);
  if (value === null) return null;
  const match = allowed.find((candidate) => candidate === value);
  if (match === undefined) {
    throw new UsageError(`--${name} must be one of ${allowed.join(", ")}; got ${quote(value)}`);
  }
  return match;
}

function concurrencyValue(values: ParsedValues): number | null {
  const value = stringValue(values, "concurrency");
  if (value === null) return null;
  const number = /^\d{1,4}$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= 1 && number <= MAX_CONCURRENCY)) {
    throw new UsageError(
      `--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}; got ${quote(value)}`,
    );
  }
  return number;
}

/** Echoes user input safely: control characters escaped, so a message stays one harmless line. */
function quote(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
}
