/** pass and fail decide the exit code; warn is a weaker setup that still works; skip does not apply here. */
export type DoctorStatus = "pass" | "warn" | "fail" | "skip";

/** One row of `gadfly doctor`: what was checked, what was found, and what to do when it is wrong. */
export interface DoctorCheck {
  /** Stable for scripts, e.g. `config`, `key:openai`, `provider:openai`, `model:gpt-5.1`. */
  id: string;
  /** What the row is about, for a person. */
  title: string;
  status: DoctorStatus;
  /** What was found, one line. */
  detail: string;
  /** What to do, one line; null when nothing needs doing. */
  fix: string | null;
}

export interface DoctorReport {
  /** False when any check failed. */
  ok: boolean;
  checks: DoctorCheck[];
}

/** A row; `fix` only where something is to be done. */
export function doctorCheck(
  id: string,
  title: string,
  status: DoctorStatus,
  detail: string,
  fix: string | null = null,
): DoctorCheck {
  return { id, title, status, detail, fix: status === "pass" || status === "skip" ? null : fix };
}
