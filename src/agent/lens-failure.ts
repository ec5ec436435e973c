/** A lens that ended without a publishable answer; the message is safe to publish. */
export class LensFailure extends Error {
  /** What the model did answer, if anything: kept for the per-lens detail. */
  readonly text: string;

  constructor(message: string, text = "") {
    super(message);
    this.name = "LensFailure";
    this.text = text;
  }
}
