/** Lines of the app's output that betray an unhandled rejection or an uncaught exception. */
export function unhandledErrors(output: string): string[] {
  return output
    .split("\n")
    .filter((line) => /unhandledRejection|UnhandledPromiseRejection|uncaught/i.test(line));
}
