/**
 * Polls `check` until it returns true. For tests against a real database,
 * whose timing no fake clock controls; polls every few milliseconds and fails
 * with `what` rather than hanging.
 */
export async function eventually(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 8000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
