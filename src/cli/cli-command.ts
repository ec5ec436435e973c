import type { CommandName } from "./command-specs.js";

/** What `gadfly review` prints. `markdown` is exactly the consensus comment. */
export type OutputFormat = "text" | "markdown" | "json" | "sarif";

/** The lowest severity that makes `gadfly review` exit non-zero; none means always exit 0. */
export type FailOn = "high" | "medium";

/** The options of `gadfly review`, validated; null means "not given, use the default". */
export interface ReviewCommandOptions {
  /** Base ref; null: the merge-base with the default branch. */
  base: string | null;
  /** Head ref; null: the working tree, uncommitted changes included. */
  head: string | null;
  /** The repository to review (any directory inside it); "." unless given. */
  repoPath: string;
  /** Model ids to use, in order, without duplicates; null: every configured model. */
  models: string[] | null;
  /** Lens ids to use, in order, without duplicates; null: the configured lenses. */
  lenses: string[] | null;
  /** The config file; null: GADFLY_CONFIG or the user's config directory, never the reviewed tree. */
  configPath: string | null;
  /** Reviewers in flight at once; null: the config's value. */
  concurrency: number | null;
  /** False with `--no-verify`: skip the survival pass. */
  verify: boolean;
  /** Given, or the default: `text` when stdout is a terminal and there is no `--output`, else `markdown`. */
  format: OutputFormat;
  /** Write the report to this file instead of stdout. */
  output: string | null;
  failOn: FailOn | null;
  /** Save every model transcript into this directory. */
  recordDir: string | null;
  /** Answer from the transcripts in this directory, with no model at all. */
  replayDir: string | null;
  /** Review the bundled demo change from its bundled recordings, offline. */
  demo: boolean;
  /** False with `--no-progress`: no live status board. */
  progress: boolean;
}

/** The options of `gadfly init`. */
export interface InitCommandOptions {
  /** Where to write the config; null: `gadfly.config.yml` here. `.env.example` goes next to it. */
  configPath: string | null;
  /** Provider ids from --providers; null: ask on a terminal. */
  providers: string[] | null;
}

/** The options of `gadfly doctor`. */
export interface DoctorCommandOptions {
  /** The app config; null: GADFLY_CONFIG, else `gadfly.config.yml` here, as `npm start` reads it. */
  configPath: string | null;
  format: "text" | "json";
}

/** The options of `gadfly stats`. */
export interface StatsCommandOptions {
  /** The window, back from now, in milliseconds (`--since 30d`). */
  sinceMs: number;
  /** As given, for the report's heading. */
  since: string;
  /** `--repo owner/name`; null: every repository. */
  repository: { owner: string; repo: string } | null;
  format: "text" | "json" | "csv";
  /** The app config, for the models' prices; null: GADFLY_CONFIG, else `gadfly.config.yml` here. */
  configPath: string | null;
}

/** The options of `gadfly eval`. */
export interface EvalCommandOptions {
  /** The dataset file, native or AACR-Bench JSON. */
  dataset: string;
  /** Where the clones are; null: the dataset's directory. */
  reposDir: string | null;
  /** Lines either side of a gold range a finding may be on. */
  window: number;
  /** Only the first N entries; null: all. */
  limit: number | null;
  /** The results file read to skip finished entries and appended to; null: none. */
  resume: string | null;
  models: string[] | null;
  lenses: string[] | null;
  configPath: string | null;
  concurrency: number | null;
  format: "text" | "markdown" | "json";
  output: string | null;
  /** Transcripts go to `<recordDir>/<entry id>`. */
  recordDir: string | null;
  /** Answers come from `<replayDir>/<entry id>`. */
  replayDir: string | null;
  progress: boolean;
  /** `--judge MODEL`: a model of the config confirms each location match; null: location only. */
  judge: string | null;
  /** Where the judge's answers are cached; null: `.gadfly-judge` beside the dataset. */
  judgeCache: string | null;
}

export type CliCommand =
  /** The help of one command, or of gadfly (null). */
  | { kind: "help"; command: CommandName | null }
  | { kind: "version" }
  | { kind: "review"; options: ReviewCommandOptions }
  /** Reserved: a queue worker. Only `--config` is accepted for now. */
  | { kind: "worker"; configPath: string | null }
  | { kind: "init"; options: InitCommandOptions }
  | { kind: "doctor"; options: DoctorCommandOptions }
  | { kind: "stats"; options: StatsCommandOptions }
  | { kind: "eval"; options: EvalCommandOptions };
