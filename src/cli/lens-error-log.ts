import { type LensReport, publicFailureReason } from "../agent/index.js";
import { redactSecrets } from "../llm/index.js";
import { terminalSafeText } from "./terminal-safe-text.js";

/** What one lens error may print: the agent's stderr tail is already cut to 400 characters. */
const MAX_ERROR_CHARS = 1_000;

export interface LensErrorLog {
  /** Keeps the error behind a failed lens try (`onLensError`): redacted, one line, bounded. */
  record(model: string, lens: string, error: unknown): void;
  /** The error behind a failed lens: its last try's (the end of its failover chain), or null. */
  errorOf(model: string, report: Pick<LensReport, "lens" | "outcome" | "failovers">): string | null;
  /** Every error kept, in the order they came. */
  entries(): { model: string; lens: string; error: string }[];
}

/**
 * The errors the App logs beside a failed lens, kept for `gadfly review`, which has no log
 * (only those that say more than the lens's public reason):
 * an agent CLI's own words (its stderr tail) reach the terminal and the report, never the
 * board. The user's own run, but what an agent printed can quote the pull request or a key:
 * the run's secrets are redacted and control characters removed.
 */
export function createLensErrorLog(secrets: readonly string[]): LensErrorLog {
  const errors = new Map<string, { model: string; lens: string; error: string }>();
  const key = (model: string, lens: string) => `${model}\u0000${lens}`;
  return {
    record(model, lens, error) {
      const raw = error instanceof Error ? error.message : String(error);
      const text = terminalSafeText(redactSecrets(raw, secrets), { oneLine: true });
      // Most errors are their public reason, already on the board and in `failure`.
      if (text === publicFailureReason(error)) return;
      const bounded =
        text.length <= MAX_ERROR_CHARS ? text : `${text.slice(0, MAX_ERROR_CHARS - 1)}…`;
      errors.delete(key(model, lens));
      errors.set(key(model, lens), { model, lens, error: bounded });
    },
    errorOf(model, report) {
      if (report.outcome !== "failed") return null;
      const last = report.failovers?.at(-1)?.to ?? model;
      return errors.get(key(last, report.lens))?.error ?? null;
    },
    entries: () => [...errors.values()],
  };
}
