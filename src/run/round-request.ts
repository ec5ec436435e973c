import type { UsageFigures } from "../accounting/index.js";
import type { LensDefinition, LensReport } from "../agent/index.js";
import type { ProviderConfig, ReviewPlan } from "../config/index.js";
import type { Message, ModelFactory } from "../llm/index.js";
import type { SharedScrubbedCopies } from "../sandbox/index.js";
import type { Clock } from "../time/index.js";
import type { ChallengeRecord } from "./cross-examine.js";
import type { ReviewerLimiter } from "./reviewer-limiter.js";
import type { ReaderShare } from "./round-budget-gate.js";
import type { RoundStatus } from "./round-status.js";
import type { SummaryRecord } from "./summary-phase.js";

/**
 * A round, as every phase of the pipeline takes it: what it reviews, with what the process lends
 * it, and its journal. Each phase reads the part it needs; none takes a bag of loose options.
 * `Change` is the phase's view of the change: a source to read (reviewChange), the change set
 * (reviewRound and the phases after it).
 */
export interface RoundRequest<Change> {
  subject: RoundSubject;
  change: Change;
  runtime: RoundRuntime;
  journal?: RoundJournal | undefined;
}

/** What the round reviews with: the plan (models × lenses, limits) and what it names. */
export interface RoundSubject {
  plan: ReviewPlan;
  providers: readonly ProviderConfig[];
  /** Definitions of every lens in `plan.lenses` (built-in and the repository's own). */
  lenses: readonly LensDefinition[];
  round: number;
  /**
   * Models kept from this change, by model id, with a reason safe to publish: each of
   * their lenses ends "skipped" without a model being built or a process started.
   */
  skip?: ReadonlyMap<string, string> | undefined;
  /** The downshift the plan was given for a large change, in words: shown on the board. */
  downshift?: string | undefined;
  /** The settings the downshift came from, as the board names them. */
  downshiftBy?: string | undefined;
  /**
   * An incremental round's light step (smallStepPlan): only the models `assignment` gives a lens
   * (lens → model ids) review it — none for an empty step — and `note` says so on the board.
   * Absent: every model reviews every lens.
   */
  step?: LightStep | undefined;
}

export interface LightStep {
  note: string;
  empty: boolean;
  assignment: ReadonlyMap<string, readonly string[]>;
}

/** What the process lends a round: keys, the stop signal, the model slots, time and models. */
export interface RoundRuntime {
  /** Where provider keys are read from, by the names the config gives. */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Every secret of the process (collectSecrets, computed once at start-up): removed from what
   * models wrote before it reaches the board, a report or a transcript. Absent: the secrets
   * `env` and the providers name are collected by the round.
   */
  secrets?: readonly string[] | undefined;
  signal: AbortSignal;
  /** The global cap on model sessions in flight, shared by every round of the process. */
  limiter: ReviewerLimiter;
  clock?: Clock | undefined;
  /** Tests and the demo may build models their own way. */
  createModel?: ModelFactory | undefined;
  record?: { dir: string } | undefined;
  /**
   * The round's scrubbed copies for agent CLIs: each snapshot copied once for every lens, verify
   * and challenge (reviewChange makes them, and deletes them when the round ends).
   */
  sharedCopies?: SharedScrubbedCopies | undefined;
  /**
   * The installation's spend today (UTC) in its other rounds, read as each lens is about to
   * start, for the plan's daily caps. Absent (the CLI): only the round cap is checked.
   */
  dailySpend?: (() => Promise<UsageFigures>) | undefined;
  /** A reader's round (`ReaderShare`): its lenses also stop at readers' share of the daily caps. */
  readerShare?: ReaderShare | undefined;
}

/**
 * What a round reads of its earlier attempts and reports as it goes. Each kind of session (lens,
 * challenge, re-check) is `Saved`: those ended before a restart are reused, not asked again, and
 * each new one is handed over (to persist it) before the round goes on.
 */
export interface RoundJournal {
  resumed?: boolean | undefined;
  lenses?: Saved<LensReport> | undefined;
  challenges?: Saved<ChallengeRecord> | undefined;
  rechecks?: Saved<ChallengeRecord> | undefined;
  onStatus?: ((status: RoundStatus) => void) | undefined;
  /**
   * Called with the error behind each failed lens, for the log (which redacts it): reports and
   * the board carry only the public reason.
   */
  onLensError?: ((model: string, lens: string, error: unknown) => void) | undefined;
  /**
   * Called with the round's summary of the change once it ended (written, failed or cancelled),
   * to save what it spent: the daily caps count it like any other model call.
   */
  onSummary?: ((record: SummaryRecord) => Promise<void>) | undefined;
  /** Called with each lens's conversation (secrets redacted) once the lens ends. */
  onTranscript?: ((model: string, lens: string, messages: Message[]) => Promise<void>) | undefined;
}

/** Sessions of one kind: those that ended before a restart, and where each new one is saved. */
export interface Saved<Record> {
  finished?: readonly Record[] | undefined;
  onEnded?: ((record: Record) => Promise<void>) | undefined;
}
