/** A gold comment: where a reviewer found a problem. Lines are inclusive, `fromLine <= toLine`. */
export interface GoldComment {
  path: string;
  side: "left" | "right";
  fromLine: number;
  toLine: number;
  category: string | null;
  /** What the reviewer wrote, when the dataset gives it: what a judge model reads (`--judge`). */
  body?: string;
}

/** One pull request of a dataset, in either format, as `gadfly eval` runs it. */
export interface EvalEntry {
  id: string;
  url: string | null;
  /** The clone's directory, absolute. */
  repoDir: string;
  base: string;
  head: string;
  gold: GoldComment[];
}
