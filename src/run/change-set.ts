import type { RepositoryConvention } from "../agent/index.js";
import type { DiffFile } from "../diff/index.js";
import type { NotReviewed } from "./round-status.js";

/**
 * One change to review, whatever it came from (a pull request, a local git
 * range): the core knows nothing of GitHub.
 */
export interface ChangeSet {
  title: string;
  description: string;
  headSha: string;
  /** Every changed file, parsed (the changed-line index is built from these). */
  files: DiffFile[];
  /** The diff as reviewers see it: whole files packed into the budget. */
  packedDiff: string;
  /** Paths in `packedDiff`. */
  included: string[];
  /** Files left out of the review, and why: listed on the board when the round ends. */
  notReviewed: NotReviewed[];
  /** A directory holding the head tree; the reviewers' tools read it. */
  workspaceDir: string;
  /**
   * The repository's conventions every lens is given (files from the base, the config's
   * instructions for these paths), bounded; absent or empty when there are none.
   */
  conventions?: RepositoryConvention[];
}
