/**
 * What each command is, for its help and its parser: one entry per command. The options a
 * command accepts are the ones its help lists (parseCliArgs reads them from here), so nothing is
 * accepted that `gadfly help <command>` does not document. A new command adds its entry here,
 * its options to parseCliArgs's OPTIONS, a kind to CliCommand and a branch to runCli.
 */
export interface OptionHelp {
  /** As typed, with a placeholder for its value: `--base REF`, `--no-verify`. */
  flag: string;
  help: string;
}

export interface CommandSpec {
  name: string;
  /** What follows `gadfly <name>` in the usage line. */
  synopsis: string;
  /** One line for the list of commands. */
  summary: string;
  /** The paragraphs of `gadfly help <name>`, before its options. */
  description: readonly string[];
  options: readonly OptionHelp[];
  /** Paragraphs after the options (exit codes, where to read more). */
  notes?: readonly string[];
}

const CONFIG_FOR_THE_APP: OptionHelp = {
  flag: "--config FILE",
  help: "the app's config (default: $GADFLY_CONFIG, else gadfly.config.yml here, as `npm start` reads it)",
};

/** Options several commands take, said the same way in each help. */
const MODELS_OPTION = { flag: "--models a,b", help: "only these model ids from the config" };
const LENSES_OPTION = {
  flag: "--lenses x,y",
  help: "only these lenses (security, correctness, ...)",
};
const CONCURRENCY_OPTION = { flag: "--concurrency N", help: "reviewers in flight at once (1-64)" };
const OUTPUT_OPTION = { flag: "--output FILE", help: "write the report to FILE instead of stdout" };

export const COMMAND_SPECS = [
  {
    name: "review",
    synopsis: "[options]",
    summary: "review a local git change with several models",
    description: [
      "Reviews the change in a git repository (by default the working tree, uncommitted and untracked files included, against the merge-base with the default branch) with every model of your config through every lens, and prints the consensus. Run it anywhere inside the repository.",
      "The config is yours, never the reviewed tree's: --config, $GADFLY_CONFIG, or ~/.config/gadfly/config.yml (`gadfly init --config ~/.config/gadfly/config.yml` writes one). With nothing changed it says so and calls no model. `gadfly review --demo` shows a whole review offline, with no key.",
    ],
    options: [
      {
        flag: "--base REF",
        help: "compare against REF (default: the merge-base with the default branch: origin/HEAD, main or master; without one, --base is needed: the branch the change goes into, or HEAD for the uncommitted changes only)",
      },
      {
        flag: "--head REF",
        help: "review the commit REF (default: the working tree, uncommitted and untracked files included)",
      },
      {
        flag: "--repo PATH",
        help: "the repository to review, any directory inside it (default: .)",
      },
      MODELS_OPTION,
      LENSES_OPTION,
      {
        flag: "--config FILE",
        help: "the config (default: $GADFLY_CONFIG, else $XDG_CONFIG_HOME/gadfly/config.yml, else ~/.config/gadfly/config.yml); a gadfly.config.yml in the reviewed tree is never read",
      },
      CONCURRENCY_OPTION,
      { flag: "--no-verify", help: "skip the verify pass" },
      {
        flag: "--format FORMAT",
        help: "text, markdown, json or sarif (default: text on a terminal, markdown otherwise)",
      },
      OUTPUT_OPTION,
      {
        flag: "--fail-on LEVEL",
        help: "exit 1 when a finding is at least LEVEL (high or medium); without it the exit code is 0 (advisory)",
      },
      { flag: "--record DIR", help: "save every model transcript into DIR" },
      { flag: "--replay DIR", help: "answer from the transcripts in DIR, no model at all" },
      { flag: "--demo", help: "review the bundled demo change from its recordings, offline" },
      { flag: "--no-progress", help: "no live progress on stderr" },
    ],
    notes: [
      "Exit codes: 0 reviewed (whatever the verdict) or nothing to review, 1 --fail-on reached, 2 usage, config or repository error, 3 no model completed the review.",
    ],
  },
  {
    name: "eval",
    synopsis: "--dataset FILE [--repos DIR] [options]",
    summary: "measure review quality on pull requests with gold review comments",
    description: [
      "Reviews each pull request of a dataset (Gadfly's own JSON format, or AACR-Bench's positive_samples.json) in a local clone, with every model of your config through every lens as `gadfly review` does, and scores the findings against the dataset's gold comments by location: a hit is a finding on the same path whose line lies within --window lines of a gold comment's range, each gold comment matched once. It reports precision, recall and F1 per model, per lens, for the whole consensus and for the inline set, with tokens, cost and time.",
      "Nothing is fetched: point --repos at the clones (an AACR-Bench entry is looked for at DIR/owner/name, then DIR/name) with both commits present. Budget caps of the config bound the run: budget.roundTokens each pull request, budget.dailyTokens and budget.dailyCostUsd the whole run.",
    ],
    options: [
      {
        flag: "--dataset FILE",
        help: "the dataset: gadfly-eval JSON or AACR-Bench JSON (required)",
      },
      {
        flag: "--repos DIR",
        help: "where the clones are (default: the dataset's directory)",
      },
      {
        flag: "--window N",
        help: "lines either side of a gold comment's range a finding may be on (0-50; default: 3)",
      },
      { flag: "--limit N", help: "only the first N pull requests of the dataset" },
      {
        flag: "--resume FILE",
        help: "a results file: pull requests already in it are not reviewed again, each new one is added as it ends",
      },
      MODELS_OPTION,
      LENSES_OPTION,
      {
        flag: "--config FILE",
        help: "the config (default: $GADFLY_CONFIG, else $XDG_CONFIG_HOME/gadfly/config.yml, else ~/.config/gadfly/config.yml)",
      },
      CONCURRENCY_OPTION,
      { flag: "--format FORMAT", help: "text, markdown or json (default: text)" },
      OUTPUT_OPTION,
      { flag: "--record DIR", help: "save every model transcript into DIR/<entry id>" },
      {
        flag: "--replay DIR",
        help: "answer from the transcripts in DIR/<entry id>, no model at all",
      },
      {
        flag: "--judge MODEL",
        help: "a chat model of the config confirms each location match (the same problem?); its answers are cached and its cost shown (live even under --replay)",
      },
      {
        flag: "--judge-cache DIR",
        help: "where the judge's answers are kept (default: .gadfly-judge beside the dataset)",
      },
      { flag: "--no-progress", help: "no progress line on stderr" },
    ],
    notes: [
      "Exit codes: 0 the report was written (a pull request that could not be reviewed is listed in it, not scored), 2 usage, config or dataset error, 3 no pull request could be scored.",
    ],
  },
  {
    name: "init",
    synopsis: "[--providers a,b] [--config FILE]",
    summary: "write a starter config and .env.example (never over a file)",
    description: [
      "Writes a commented config for the providers you pick and, next to it, .env.example: every variable that config and the GitHub App need, each with where to get it. It never overwrites a file. On a terminal without --providers it asks which providers.",
    ],
    options: [
      {
        flag: "--providers a,b",
        help: "the providers, without asking: openai, anthropic, ollama, ollama-cloud, claude-code, codex, gemini-cli",
      },
      {
        flag: "--config FILE",
        help: "where to write the config (default: gadfly.config.yml here; for `gadfly review`: ~/.config/gadfly/config.yml)",
      },
    ],
  },
  {
    name: "doctor",
    synopsis: "[--config FILE] [--format text|json]",
    summary: "check everything the GitHub App needs",
    description: [
      "Checks what a first round of the GitHub App needs, on what `npm start` here would use (the environment, .env over it): the config, each provider's key, each provider and model (5 s at most each), the App's credentials and installations, the webhook secret, the data directory, the database and the isolation agent CLIs would get. It never prints a key.",
    ],
    options: [
      CONFIG_FOR_THE_APP,
      { flag: "--format FORMAT", help: "text or json (default: text)" },
    ],
    notes: ["Exit codes: 0 every check passed, 1 a check failed, 2 usage error."],
  },
  {
    name: "stats",
    synopsis: "[--since 30d] [--repo owner/name] [--format text|json|csv] [--config FILE]",
    summary: "score each model and lens from the app's store",
    description: [
      "The scoreboard of the GitHub App's store, found as `npm start` here finds it (.env, GADFLY_DATABASE_URL, else the SQLite file in GADFLY_DATA_DIR; it creates nothing): per model and per lens, findings, agreement, cross-examination, fixed, dismissed, reactions, tokens and cost per useful finding, time and failures.",
    ],
    options: [
      {
        flag: "--since WINDOW",
        help: "hours, days or weeks back from now: 12h, 30d, 2w (default: 30d)",
      },
      { flag: "--repo owner/name", help: "one repository (default: all)" },
      { flag: "--format FORMAT", help: "text, json or csv (default: text)" },
      {
        flag: "--config FILE",
        help: "the app's config, for the models' prices (default: $GADFLY_CONFIG, else gadfly.config.yml here; without one, tokens only)",
      },
    ],
  },
  {
    name: "worker",
    synopsis: "[--config FILE]",
    summary: "run review workers for the GitHub App (with PostgreSQL)",
    description: [
      "Runs rounds from the app's queue, as `GADFLY_ROLE=worker npm start` does: needs GADFLY_DATABASE_URL and the App's credentials, and serves /healthz, /readyz and /metrics on PORT. See docs/running-at-scale.md.",
    ],
    options: [CONFIG_FOR_THE_APP],
  },
  {
    name: "help",
    synopsis: "[command]",
    summary: "show the help of gadfly or of a command",
    description: ["Shows the commands, or the options of one: `gadfly help review`."],
    options: [],
  },
] as const satisfies readonly CommandSpec[];

export type CommandName = (typeof COMMAND_SPECS)[number]["name"];

/** The option names a flag of the help stands for: `--base REF` is `base`. */
export function optionName(flag: string): string {
  return flag.replace(/^--/, "").split(" ")[0] ?? "";
}
