/**
 * A failure the model should read and act on (a refused path, a bad regex):
 * the tool loop turns it into the tool's answer, never into a crash.
 */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolError";
  }
}
