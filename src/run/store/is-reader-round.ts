import type { RoundTrigger } from "./run-store.js";

/**
 * A round held to the reader limits and readers' share of the daily caps: a push to a pull
 * request whose author cannot write, which carries that author as `trigger.actor` (a writer's
 * push carries none; a comment's actor is the writer who asked).
 */
export function isReaderRound(round: { trigger: RoundTrigger }): boolean {
  return round.trigger.kind === "push" && round.trigger.actor !== undefined;
}
