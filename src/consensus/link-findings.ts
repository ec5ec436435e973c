import { agreementScore, type Comparable, FAR_LINES, normalizedTitle } from "./agreement-score.js";
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

interface Edge {
  left: number;
  right: number;
  score: number;
}

/** Pairs of members whose ranges lie within FAR_LINES: a sweep over ranges sorted by start. */
function candidatePairs(block: readonly PreparedFinding[]): Array<[number, number]> {
  const entries = block.flatMap((member, position) =>
    member.ranges.map((range) => ({ ...range, position })),
  );
  entries.sort((a, b) => a.start - b.start || a.end - b.end || a.position - b.position);
  const seen = new Set<number>();
  const pairs: Array<[number, number]> = [];
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
      if (left !== right && !seen.has(key)) {
        seen.add(key);
        pairs.push([left, right]);
      }
    }
  }
  return pairs;
}

/**
 * Groups the findings of one file (greedy average-linkage agglomeration over candidate
 * edges, strongest first) and returns groups of positions into `block`. Plain single linkage
 * would chain different problems through one vague finding; average linkage and the
 * same-model rule stop that.
 */
export function linkFindings(block: readonly PreparedFinding[]): number[][] {
  const factor = inverseDocumentFrequency(block.map((member) => member.profile));
  const comparables: Comparable[] = block.map((member) => ({
    file: member.finding.file,
    ranges: member.ranges,
    vectors: textVectors(member.profile, factor),
    title: normalizedTitle(member.finding.title),
  }));
  const scores = new Map<number, number>();
  const edges: Edge[] = [];
  for (const [left, right] of candidatePairs(block)) {
    const a = comparables[left];
    const b = comparables[right];
    if (a !== undefined && b !== undefined) {
      const score = agreementScore(a, b);
      scores.set(left * block.length + right, score);
      if (score >= EDGE_THRESHOLD) {
        edges.push({ left, right, score });
      }
    }
  }
  edges.sort((a, b) => b.score - a.score || a.left - b.left || a.right - b.right);

  // Pairs that were never candidates lie too far apart: they score 0.
  const scoreOf = (x: number, y: number): number =>
    scores.get(Math.min(x, y) * block.length + Math.max(x, y)) ?? 0;
  const canMerge = (first: readonly number[], second: readonly number[]): boolean => {
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
    if (
      keepId !== dropId &&
      kept !== undefined &&
      dropped !== undefined &&
      canMerge(kept, dropped)
    ) {
      for (const position of dropped) {
        kept.push(position);
        groupOf[position] = keepId;
      }
      groups.delete(dropId);
    }
  }
  return [...groups.values()];
}
