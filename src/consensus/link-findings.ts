import {
  agreementScore,
  type Comparable,
  FAR_LINES,
  NEAR_LINES,
  normalizedTitle,
} from "./agreement-score.js";
import { inverseDocumentFrequency } from "./inverse-document-frequency.js";
import type { PreparedFinding } from "./prepared-finding.js";
import { textVectors } from "./text-similarity.js";

/** Two findings this alike (after the distance discount) may start a cluster together. */
export const EDGE_THRESHOLD = 0.15;
/**
 * Every pair of findings in one cluster must score at least this: complete linkage at a
 * floor, so no finding joins a cluster through a bridge it does not itself resemble (a pair
 * whose kinds conflict, or that shares nothing, scores 0). Low, because models that describe
 * one defect from two lenses often share few words; the mean below does the rest.
 */
export const PAIR_FLOOR = 0.05;
/** Mean agreement over every cross pair required to merge two groups (average linkage). */
export const LINK_THRESHOLD = 0.135;
/**
 * Two findings of one model share a cluster only when they are the same claim (one problem
 * reported under two lenses), which takes far more than resemblance: a model's two different
 * findings a line apart share its identifiers, and merging them would let a cluster bridge two
 * problems through them.
 */
export const SAME_CLAIM_THRESHOLD = 0.45;
/**
 * A cluster whose weakest pair between two different models scores below this is merged on
 * weak evidence: it is shown as one row, but its agreement is unsure (`Cluster.unsure`) and
 * counts only once cross-examination confirms it.
 */
export const STRONG_THRESHOLD = 0.2;
/**
 * Pairs compared in one file at most. Every pair of findings within FAR_LINES is scored, so a
 * model made to pile findings onto one place costs the square of their number in time and
 * memory: 600,000 pairs is about 1,100 findings at one line (4 models × 5 lenses × 50 is 1,000,
 * all the finding limit lets through with the default lenses), clustered in about a second. A
 * block over it is grouped by `sameTitleGroups` instead; no honest review comes near.
 */
export const MAX_COMPARED_PAIRS = 600_000;

/** A group of positions into the block, and the weakest cross-model pair inside it. */
export interface LinkedGroup {
  members: number[];
  /** The lowest score between two of its findings from different models; 1 with one model. */
  weakest: number;
}

/** What linkage needs of the pairs between two groups, kept up to date as groups merge. */
interface CrossPairs {
  /** Pairs across the two groups that reach their floor (see `compatible`). */
  compatible: number;
  /** The sum of their scores. */
  total: number;
  /** The lowest score of those pairs whose findings come from different models. */
  weakestCrossModel: number;
}

/** Whether a pair may share a cluster: every pair in one must. */
function compatible(score: number, sameModel: boolean): boolean {
  return score >= (sameModel ? SAME_CLAIM_THRESHOLD : PAIR_FLOOR);
}

/**
 * Below this distance from LINK_THRESHOLD a mean is too close to call from an incremental
 * sum (the order of summing moves its last bits); the decision must not depend on that.
 */
const TIE_EPSILON = 1e-9;

/**
 * The statistics of every pair of groups that have a compatible pair between them, merged as
 * the groups merge. Deciding a merge then costs a lookup, not the product of the two group
 * sizes: re-checking every cross pair for every edge was quadratic within a block (and
 * quartic in the worst case: 2,000 findings at one line blocked the event loop for 9.5 s).
 * Counts are integers, so the decision never depends on the order of a floating-point sum.
 */
class GroupLinks {
  private readonly neighbours = new Map<number, Map<number, CrossPairs>>();
  private readonly weakest = new Map<number, number>();

  constructor(size: number) {
    for (let position = 0; position < size; position += 1) {
      this.neighbours.set(position, new Map());
      this.weakest.set(position, 1);
    }
  }

  addPair(left: number, right: number, score: number, sameModel: boolean): void {
    if (!compatible(score, sameModel)) return;
    const pairs: CrossPairs = {
      compatible: 1,
      total: score,
      weakestCrossModel: sameModel ? 1 : score,
    };
    this.neighbours.get(left)?.set(right, pairs);
    this.neighbours.get(right)?.set(left, pairs);
  }

  /**
   * Every pair across the two groups is compatible (complete linkage at the floor) and their
   * mean reaches LINK_THRESHOLD; "too close to call" when the mean is within TIE_EPSILON of it.
   */
  canMerge(first: number, second: number, pairCount: number): "yes" | "no" | "too close to call" {
    const pairs = this.neighbours.get(first)?.get(second);
    if (pairs === undefined || pairs.compatible !== pairCount) return "no";
    const mean = pairs.total / pairCount;
    if (Math.abs(mean - LINK_THRESHOLD) < TIE_EPSILON) return "too close to call";
    return mean >= LINK_THRESHOLD ? "yes" : "no";
  }

  /** The weakest cross-model pair inside a group (1 for a group of one model). */
  weakestOf(group: number): number {
    return this.weakest.get(group) ?? 1;
  }

  /** Folds group `dropped` into group `kept`: its pair statistics and its weakest pair. */
  merge(kept: number, dropped: number): void {
    const keptNeighbours = this.neighbours.get(kept);
    const droppedNeighbours = this.neighbours.get(dropped);
    if (keptNeighbours === undefined || droppedNeighbours === undefined) return;
    const between = keptNeighbours.get(dropped);
    this.weakest.set(
      kept,
      Math.min(this.weakestOf(kept), this.weakestOf(dropped), between?.weakestCrossModel ?? 1),
    );
    this.weakest.delete(dropped);
    keptNeighbours.delete(dropped);
    for (const [neighbour, pairs] of droppedNeighbours) {
      if (neighbour === kept) continue;
      const theirs = this.neighbours.get(neighbour);
      theirs?.delete(dropped);
      const existing = keptNeighbours.get(neighbour);
      if (existing === undefined) {
        // Only the dropped group has compatible pairs with it: the kept one's are all missing,
        // so the two can never merge; the entry still says so by its count.
        const copy = { ...pairs };
        keptNeighbours.set(neighbour, copy);
        theirs?.set(kept, copy);
      } else {
        existing.compatible += pairs.compatible;
        existing.total += pairs.total;
        existing.weakestCrossModel = Math.min(existing.weakestCrossModel, pairs.weakestCrossModel);
      }
    }
    this.neighbours.delete(dropped);
  }
}

interface Edge {
  left: number;
  right: number;
  score: number;
}

/** A member's line range, tagged with its position in the block. */
interface RangeEntry {
  start: number;
  end: number;
  position: number;
}

/** Every member's ranges, sorted by start: what the candidate sweep walks. */
function sortedRanges(block: readonly PreparedFinding[]): RangeEntry[] {
  const entries = block.flatMap((member, position) =>
    member.ranges.map((range) => ({ start: range.start, end: range.end, position })),
  );
  entries.sort((a, b) => a.start - b.start || a.end - b.end || a.position - b.position);
  return entries;
}

/**
 * Visits each pair of members whose ranges lie within FAR_LINES once: a sweep over ranges
 * sorted by start. A visitor rather than a list: a dense block has hundreds of thousands.
 */
function forEachCandidatePair(
  block: readonly PreparedFinding[],
  entries: readonly RangeEntry[],
  visit: (left: number, right: number) => void,
): void {
  // With one range per member each pair comes up once; only extra ranges can repeat a pair.
  const seen = entries.length > block.length ? new Set<number>() : null;
  for (const [i, current] of entries.entries()) {
    for (let j = i + 1; j < entries.length; j += 1) {
      const next = entries[j];
      // Sorted by start: once one starts too far after this one ends, all later ones do.
      if (next === undefined || next.start > current.end + FAR_LINES) {
        break;
      }
      const left = Math.min(current.position, next.position);
      const right = Math.max(current.position, next.position);
      const key = left * block.length + right;
      if (left !== right && !seen?.has(key)) {
        seen?.add(key);
        visit(left, right);
      }
    }
  }
}

/** Whether the sweep would visit more than `budget` range pairs; stops counting past it. */
function exceedsPairBudget(entries: readonly RangeEntry[], budget: number): boolean {
  let pairs = 0;
  for (const [i, current] of entries.entries()) {
    for (let j = i + 1; j < entries.length; j += 1) {
      const next = entries[j];
      if (next === undefined || next.start > current.end + FAR_LINES) break;
      pairs += 1;
      if (pairs > budget) return true;
    }
  }
  return false;
}

/**
 * The fallback for a block over the pair budget, linear after a sort: findings with the same
 * normalized title whose own ranges lie within NEAR_LINES of each other are one group (they
 * would score 1 together), every other finding stands alone. Coarser than average linkage,
 * but only model output built to flood one place ever gets here.
 */
function sameTitleGroups(block: readonly PreparedFinding[]): LinkedGroup[] {
  const byTitle = new Map<string, number[]>();
  const groups: number[][] = [];
  block.forEach((member, position) => {
    const title = normalizedTitle(member.finding.title);
    if (title === "") {
      groups.push([position]);
      return;
    }
    const members = byTitle.get(title);
    if (members === undefined) byTitle.set(title, [position]);
    else members.push(position);
  });
  const rangeOf = (position: number) => block[position]?.ranges[0] ?? { start: 0, end: 0 };
  for (const members of byTitle.values()) {
    members.sort((a, b) => rangeOf(a).start - rangeOf(b).start || a - b);
    let current: number[] = [];
    let currentEnd = Number.NEGATIVE_INFINITY;
    for (const position of members) {
      const range = rangeOf(position);
      if (current.length > 0 && range.start > currentEnd + NEAR_LINES) {
        groups.push(current);
        current = [];
      }
      current.push(position);
      currentEnd = current.length === 1 ? range.end : Math.max(currentEnd, range.end);
    }
    groups.push(current);
  }
  return groups
    .map((group) => [...group].sort((a, b) => a - b))
    .sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0))
    .map((members) => ({ members, weakest: 1 }));
}

/**
 * Groups the findings of one file (greedy agglomeration over candidate edges, strongest
 * first) and returns groups of positions into `block`, each with its weakest cross-model
 * pair. Two groups merge when every pair across them is compatible (complete linkage at
 * PAIR_FLOOR; a model's own findings only when they are the same claim) and the mean of those
 * pairs reaches LINK_THRESHOLD. Single or plain average linkage would chain different
 * problems through one vague finding or a model's own neighbouring findings.
 */
export function linkFindings(block: readonly PreparedFinding[]): LinkedGroup[] {
  const entries = sortedRanges(block);
  if (exceedsPairBudget(entries, MAX_COMPARED_PAIRS)) return sameTitleGroups(block);
  const factor = inverseDocumentFrequency(block.map((member) => member.profile));
  const comparables: Comparable[] = block.map((member) => ({
    file: member.finding.file,
    ranges: member.ranges,
    vectors: textVectors(member.profile, factor),
    title: normalizedTitle(member.finding.title),
    kinds: member.kinds,
  }));
  const links = new GroupLinks(block.length);
  const edges: Edge[] = [];
  forEachCandidatePair(block, entries, (left, right) => {
    const a = comparables[left];
    const b = comparables[right];
    if (a !== undefined && b !== undefined) {
      const score = agreementScore(a, b);
      const sameModel = block[left]?.finding.model === block[right]?.finding.model;
      links.addPair(left, right, score, sameModel);
      if (score >= EDGE_THRESHOLD && compatible(score, sameModel)) {
        edges.push({ left, right, score });
      }
    }
  });
  edges.sort((a, b) => b.score - a.score || a.left - b.left || a.right - b.right);

  // Pairs that were never candidates lie beyond FAR_LINES, where the score is 0 anyway.
  const scoreOf = (x: number, y: number): number => {
    const a = comparables[x];
    const b = comparables[y];
    return a === undefined || b === undefined ? 0 : agreementScore(a, b);
  };
  const exactlyMergeable = (first: readonly number[], second: readonly number[]): boolean => {
    let total = 0;
    for (const x of first) {
      for (const y of second) {
        const score = scoreOf(x, y);
        if (!compatible(score, block[x]?.finding.model === block[y]?.finding.model)) return false;
        total += score;
      }
    }
    return total / (first.length * second.length) >= LINK_THRESHOLD;
  };

  const groupOf = block.map((_, position) => position);
  const groups = new Map<number, number[]>(block.map((_, position) => [position, [position]]));
  for (const edge of edges) {
    const keepId = Math.min(groupOf[edge.left] ?? edge.left, groupOf[edge.right] ?? edge.right);
    const dropId = Math.max(groupOf[edge.left] ?? edge.left, groupOf[edge.right] ?? edge.right);
    const kept = groups.get(keepId);
    const dropped = groups.get(dropId);
    if (keepId === dropId || kept === undefined || dropped === undefined) continue;
    const verdict = links.canMerge(keepId, dropId, kept.length * dropped.length);
    if (verdict === "yes" || (verdict === "too close to call" && exactlyMergeable(kept, dropped))) {
      for (const position of dropped) {
        kept.push(position);
        groupOf[position] = keepId;
      }
      groups.delete(dropId);
      links.merge(keepId, dropId);
    }
  }
  return [...groups.entries()].map(([id, members]) => ({ members, weakest: links.weakestOf(id) }));
}
