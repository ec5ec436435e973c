/**
 * Takes of one round before it is given up: a round that keeps crashing whoever
 * runs it (or whose job keeps failing before it starts) ends failed instead of
 * looping. The store counts a take each time a worker starts the round; the queue
 * counts each delivery of its job. Either reaching the cap gives the round up.
 */
export const MAX_ROUND_ATTEMPTS = 3;

/** The failure a given-up round ends with, on the board, in the store and on its check. */
export function gaveUpReason(attempts: number): string {
  return `gave up after ${attempts} attempts`;
}
