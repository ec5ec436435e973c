import type { GoldComment } from "./eval-entry.js";
import { type Accepts, type Located, matchedGold } from "./match-locations.js";

/** The name a gold comment without a category is counted under. */
export const UNCATEGORIZED = "uncategorized";

export interface CategoryCount {
  category: string;
  matched: number;
  found: number;
  gold: number;
}

/**
 * Scores findings per gold category, from the one matching every scope uses. A finding carries
 * no category, so per category C: hits are C's gold comments matched; gold is C's comments; and
 * found is every finding except those matched to another category's comment (a hit on another
 * problem is not a false positive of C, but a finding that matched nothing is one of every
 * category). So C's precision is what the run would score were C's the only gold comments and
 * the hits elsewhere set aside. Comments without a category count under UNCATEGORIZED (a
 * dataset with no categories at all shows no category rows: see summarizeResults).
 */
export function scoreCategories<Found extends Located>(
  found: readonly Found[],
  gold: readonly GoldComment[],
  window: number,
  accepts?: Accepts<Found>,
): CategoryCount[] {
  if (gold.length === 0) return [];
  const taken = matchedGold(found, gold, window, accepts);
  const categoryOf = (comment: GoldComment) => comment.category ?? UNCATEGORIZED;
  const categories = [...new Set(gold.map(categoryOf))].sort();
  return categories.map((category) => {
    let matched = 0;
    let matchedElsewhere = 0;
    let count = 0;
    gold.forEach((comment, index) => {
      const hit = (taken[index] ?? -1) !== -1;
      if (categoryOf(comment) === category) {
        count += 1;
        if (hit) matched += 1;
      } else if (hit) {
        matchedElsewhere += 1;
      }
    });
    return { category, matched, found: found.length - matchedElsewhere, gold: count };
  });
}
