import type { IsolationLevel } from "./isolation-level.js";

/** The isolation in force for every agent CLI this process runs, decided once at start-up. */
export interface AgentIsolation {
  level: IsolationLevel;
  /** The unprivileged user of the `user` level, and the identity shown inside bubblewrap. */
  uid: number;
  gid: number;
  /** The bubblewrap executable (the `bwrap` level). */
  bwrap: string;
  /** Why no stronger level is in force, for the start-up log; null at the bwrap level. */
  weakerBecause: string | null;
}

/**
 * What an agent model uses when it was given no detected isolation (tests, embedders):
 * the scrubbed copy, fresh HOME and environment allow-list, nothing more.
 */
export const NO_ISOLATION: AgentIsolation = Object.freeze({
  level: "none",
  uid: 65534,
  gid: 65534,
  bwrap: "bwrap",
  weakerBecause: "no isolation was detected for this process",
});
