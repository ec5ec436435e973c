/**
 * A mistake in how the CLI was invoked (a bad flag, value or combination). The message is one
 * line meant for the user; the entry point prints it and exits with code 2, never a stack trace.
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
