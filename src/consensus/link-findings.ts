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

/**
 * Two findings this alike (after the distance discount) may start a cluster together; two
 * findings of one model must agree this well directly to share one (see `canMerge`).
 */
export const EDGE_THRESHOLD = 0.15;
/** Mean agreement over every cross pair required to merge two groups (average linkage). */
export const LINK_THRESHOLD = 0.135;
/**
 * Pairs compared in one file at most. Every pair of findings within FAR_LINES is scored, so a
 * model made to pile findings onto one place costs the square of their number in time and
 * memory: 600,000 pairs is about 1,100 findings at one line (4 models × 5 lenses × 50 is 1,000,
 * all the finding limit lets through with the default lenses), clustered in about a second. A
 * block over it is grouped by `sameTitleGroups` instead; no honest review comes near.
 */
export const MAX_COMPARED_PAIRS = 600_000;

/**
 * Below this distance from LINK_THRESHOLD, an incrementally summed mean is
 * recomputed exactly, pair by pair, in member order: summing in another order
 * can move the last bits, and the decision must not depend on that.
 */
const TIE_EPSILON = 1e-9;

/** What average linkage needs of the pairs between two groups, kept up to date as groups merge. */
interface CrossPairs {
  /** The sum of the scores of every pair across the two groups (far pairs score 0). */
  total: number;
  /** Pairs across the two groups from the same model that agree directly (score ≥ EDGE_THRESHOLD). */
  agreeingSameModel: number;
}

/**
 * The statistics of every pair of groups that have a scored pair between them, merged as the
 * groups merge. Deciding a merge then costs the number of models, not the product of the two
 * group sizes: re-summing every cross pair for every edge was quadratic within a block (and
 * quartic in the worst case: 2,000 findings at one line blocked the event loop for 9.5 s).
 */
class GroupLinks {
  private readonly neighbours = new Map<number, Map<number, CrossPairs>>();
  private readonly models = new Map<number, Map<string, number>>();

  constructor(modelOfPosition: readonly string[]) {
    modelOfPosition.forEach((model, position) => {
      this.models.set(position, new Map([[model, 1]]));
      this.neighbours.set(position, new Map());
    });
  }

  addPair(left: number, right: number, score: number, agreeingSameModel: boolean): void {
    if (score === 0 && !agreeingSameModel) return;
    const pairs: CrossPairs = { total: score, agreeingSameModel: agreeingSameModel ? 1 : 0 };
    this.neighbours.get(left)?.set(right, pairs);
    this.neighbours.get(right)?.set(left, pairs);
  }

  /**
   * The same decision as summing every cross pair: no two findings of one model that do not
   * agree directly (every same-model pair across must be an agreeing one), and a mean score of
   * at least LINK_THRESHOLD; "too close to call" when the mean is within TIE_EPSILON of it.
   */
  canMerge(first: number, second: number, pairCount: number): "yes" | "no" | "too close to call" {
    const pairs = this.neighbours.get(first)?.get(second);
    if (pairs === undefined) return "no";
    const firstModels = this.models.get(first) ?? new Map<string, number>();
    const secondModels = this.models.get(second) ?? new Map<string, number>();
    let sameModelPairs = 0;
    for (const [model, count] of firstModels)
      sameModelPairs += count * (secondModels.get(model) ?? 0);
    if (sameModelPairs > pairs.agreeingSameModel) return "no";
    const mean = pairs.total / pairCount;
    if (Math.abs(mean - LINK_THRESHOLD) < TIE_EPSILON) return "too close to call";
    return mean >= LINK_THRESHOLD ? "yes" : "no";
  }

  /** Folds group `dropped` into group `kept`: its pair statistics and its model counts. */
  merge(kept: number, dropped: number): void {
    const keptNeighbours = this.neighbours.get(kept);
    const droppedNeighbours = this.neighbours.get(dropped);
    if (keptNeighbours === undefined || droppedNeighbours === undefined) return;
    keptNeighbours.delete(dropped);
    for (const [neighbour, pairs] of droppedNeighbours) {
      if (neighbour === kept) continue;
      const theirs = this.neighbours.get(neighbour);
      theirs?.delete(dropped);
      const existing = keptNeighbours.get(neighbour);
      if (existing === undefined) {
        keptNeighbours.set(neighbour, pairs);
        theirs?.set(kept, pairs);
      } else {
        existing.total += pairs.total;
        existing.agreeingSameModel += pairs.agreeingSameModel;
      }
    }
    this.neighbours.delete(dropped);
    const keptModels = this.models.get(kept);
    for (const [model, count] of this.models.get(dropped) ?? []) {
      keptModels?.set(model, (keptModels.get(model) ?? 0) + count);
    }
    this.models.delete(dropped);
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
function sameTitleGroups(block: readonly PreparedFinding[]): number[][] {
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
    .sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));
}

/**
 * Groups the findings of one file (greedy average-linkage agglomeration over candidate
 * edges, strongest first) and returns groups of positions into `block`. Plain single linkage
 * would chain different problems through one vague finding; average linkage and the
 * same-model rule stop that.
 */
export function linkFindings(block: readonly PreparedFinding[]): number[][] {
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
  const links = new GroupLinks(block.map((member) => member.finding.model));
  const edges: Edge[] = [];
  forEachCandidatePair(block, entries, (left, right) => {
    const a = comparables[left];
    const b = comparables[right];
    if (a !== undefined && b !== undefined) {
      const score = agreementScore(a, b);
      const sameModel = block[left]?.finding.model === block[right]?.finding.model;
      links.addPair(left, right, score, sameModel && score >= EDGE_THRESHOLD);
      if (score >= EDGE_THRESHOLD) {
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
        // One model's two findings share a cluster only when they agree directly.
        if (block[x]?.finding.model === block[y]?.finding.model && score < EDGE_THRESHOLD) {
          return false;
        }
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
  return [...groups.values()];
}
