export type JobStopKind = "cancelled" | "shutdown" | "lost";

const MESSAGES: Record<Exclude<JobStopKind, "cancelled">, string> = {
  shutdown: "worker shutting down; the round resumes on another worker",
  lost: "another worker took over the round",
};

/**
 * Why a job's signal aborted. Its message is safe to publish (the status
 * board shows it as a lens's reason): `cancelled` carries the reason given
 * to `WorkQueue.cancel`, e.g. "superseded by 1a2b3c4".
 */
export class JobStopError extends Error {
  override readonly name = "JobStopError";
  readonly kind: JobStopKind;

  constructor(kind: "cancelled", reason: string);
  constructor(kind: "shutdown" | "lost");
  constructor(kind: JobStopKind, reason?: string) {
    super(kind === "cancelled" ? (reason ?? "cancelled") : MESSAGES[kind]);
    this.kind = kind;
  }

  /** The stop reason of an aborted job signal, or null when it was aborted otherwise. */
  static of(signal: AbortSignal): JobStopError | null {
    return signal.reason instanceof JobStopError ? signal.reason : null;
  }
}
