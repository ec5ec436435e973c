import type { ScopeStatus } from "../run/index.js";

/** The board's scope line: our own words around the SHA, shown as code. */
export interface ScopeLine {
  head: string;
  since: string | null;
  tail: string;
}

/**
 * What a round reviews, in one line: "🔁 Incremental: 3 files since `abc1234` …", or
 * "🔎 Full review: …" and why. Null on a first round: a full review needs no reason then.
 */
export function scopeLine(scope: ScopeStatus): ScopeLine | null {
  const since = scope.since === undefined ? null : scope.since.slice(0, 7);
  if (scope.kind === "incremental") {
    return {
      head: `🔁 Incremental: ${scope.files} file${scope.files === 1 ? "" : "s"} since`,
      since,
      tail: "(the last reviewed head; earlier rounds reviewed the rest)",
    };
  }
  const full = "🔎 Full review: ";
  switch (scope.reason) {
    case "first-round":
      return null;
    case "requested":
      return { head: `${full}asked for by a comment`, since: null, tail: "" };
    case "not-ancestor":
      return since === null
        ? { head: `${full}previous head not an ancestor (force-push or rebase)`, since, tail: "" }
        : {
            head: `${full}previous head`,
            since,
            tail: "is not an ancestor of this one (force-push or rebase)",
          };
    case "no-change":
      return { head: `${full}nothing changed since the last reviewed head`, since: null, tail: "" };
    case "too-large":
      return {
        head: `${full}GitHub lists the change since`,
        since,
        tail: "only in part (300 files or more)",
      };
    case "unavailable":
      return { head: `${full}GitHub could not give the change since`, since, tail: "" };
    case "previous-partial":
      return {
        head: `${full}a lens of the round at`,
        since,
        tail: "did not finish, so what it was to review is reviewed now",
      };
    case "base-changed":
      return {
        head: `${full}the pull request's base is not the one`,
        since,
        tail: "was reviewed against",
      };
  }
}
