import type { GoldComment } from "./eval-entry.js";

/** Where a reviewer's comment sits: the line its inline comment would be on (the head side). */
export interface Located {
  path: string;
  line: number;
}

/**
 * The location rule: same path, and the line within `window` lines of the gold range. A gold
 * comment on the base side (`left`, a removed line) has base line numbers, which a head-side
 * finding's cannot be compared with: it matches nothing, and so counts as missed.
 */
export function matchesLocation(found: Located, gold: GoldComment, window: number): boolean {
  return (
    gold.side === "right" &&
    found.path === gold.path &&
    found.line >= gold.fromLine - window &&
    found.line <= gold.toLine + window
  );
}

/** Whether a pair already at the right place also names the same problem (the judge's verdict). */
export type Accepts<Found extends Located> = (finding: Found, gold: GoldComment) => boolean;

export interface LocationMatch {
  /** True positives: pairs of one finding and one gold comment, each used once. */
  matched: number;
  found: number;
  gold: number;
}

/**
 * The most findings that can be paired with distinct gold comments (a maximum bipartite
 * matching, augmenting paths): two findings on one gold comment are one hit and one false
 * positive, so a duplicate never raises precision, and one finding never covers two problems.
 */
export function matchLocations<Found extends Located>(
  found: readonly Found[],
  gold: readonly GoldComment[],
  window: number,
  accepts?: Accepts<Found>,
): LocationMatch {
  const taken = matchedGold(found, gold, window, accepts);
  return {
    matched: taken.filter((holder) => holder !== -1).length,
    found: found.length,
    gold: gold.length,
  };
}

/**
 * The matching itself: for each gold comment, the index of the finding paired with it, or -1.
 * Findings are tried in their order, so among equally large matchings the result is fixed.
 * With `accepts` (a judge's verdicts), a pair at the right place is a candidate only if it
 * accepts it too.
 */
export function matchedGold<Found extends Located>(
  found: readonly Found[],
  gold: readonly GoldComment[],
  window: number,
  accepts?: Accepts<Found>,
): number[] {
  const candidates = found.map((finding) =>
    gold.flatMap((comment, index) =>
      matchesLocation(finding, comment, window) && (accepts?.(finding, comment) ?? true)
        ? [index]
        : [],
    ),
  );
  const goldTakenBy = new Array<number>(gold.length).fill(-1);
  const augment = (finding: number, visited: boolean[]): boolean => {
    for (const index of candidates[finding] ?? []) {
      if (visited[index] === true) continue;
      visited[index] = true;
      const holder = goldTakenBy[index] ?? -1;
      if (holder === -1 || augment(holder, visited)) {
        goldTakenBy[index] = finding;
        return true;
      }
    }
    return false;
  };
  for (let finding = 0; finding < found.length; finding++) {
    augment(finding, new Array<boolean>(gold.length).fill(false));
  }
  return goldTakenBy;
}
