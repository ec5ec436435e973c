import type { CommitRecord, RepositoryRecord } from "./types.js";

/** Every commit reachable from `sha`, nearest first (breadth-first over parents). */
export function ancestry(
  repository: RepositoryRecord,
  sha: string,
): { order: string[]; set: Set<string> } {
  const order: string[] = [];
  const set = new Set<string>();
  const queue = [sha];
  while (queue.length > 0) {
    const next = queue.shift() as string;
    if (set.has(next)) continue;
    set.add(next);
    order.push(next);
    queue.push(...(repository.commits.get(next)?.parents ?? []));
  }
  return { order, set };
}

/**
 * The merge base of two commits as git finds it for a linear or merged history: the nearest
 * ancestor of `base` that `head` also reaches; undefined when they share none.
 */
export function mergeBase(
  repository: RepositoryRecord,
  base: string,
  head: string,
): CommitRecord | undefined {
  const reached = ancestry(repository, head).set;
  const sha = ancestry(repository, base).order.find((candidate) => reached.has(candidate));
  return sha === undefined ? undefined : repository.commits.get(sha);
}
