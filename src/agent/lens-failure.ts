/** A lens that ended without a publishable answer; the message is safe to publish. */
export class LensFailure extends Error {
  /** What the model did answer, if anything: kept for the per-lens detail. */
  readonly text: string;

  /** `cause`: the error behind it, for the log; the message is what is published. */
  constructor(message: string, text = "", cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "LensFailure";
    this.text = text;
  }
}
