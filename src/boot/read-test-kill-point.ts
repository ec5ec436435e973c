import { KILL_POINTS, type KillPoint } from "../github/index.js";

/**
 * The test-only kill point (`GADFLY_TEST_KILL_POINT`), read once at start-up: a function the
 * publishing steps call at each named point, which SIGKILLs this process at the one named, as
 * a crash would. Unset (every real deployment): undefined, and nothing is called. A name that
 * is not a kill point is refused at start, so a test cannot silently kill nothing.
 */
export function readTestKillPoint(
  env: Readonly<Record<string, string | undefined>>,
): ((point: KillPoint) => void) | undefined {
  const name = env.GADFLY_TEST_KILL_POINT?.trim() ?? "";
  if (name === "") return undefined;
  if (!(KILL_POINTS as readonly string[]).includes(name)) {
    throw new Error(
      `GADFLY_TEST_KILL_POINT names no kill point: ${JSON.stringify(name)} (one of ${KILL_POINTS.join(", ")})`,
    );
  }
  return (point) => {
    if (point === name) process.kill(process.pid, "SIGKILL");
  };
}
