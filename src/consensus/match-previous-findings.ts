import type { Cluster } from "./cluster.js";
import type { PreviousFinding } from "./consensus.js";
import { inverseDocumentFrequency } from "./inverse-document-frequency.js";
import { type FindingKinds, findingKinds, kindsAgree, kindsConflict } from "./problem-kind.js";
import { type TextProfile, textProfile } from "./text-profile.js";
import type { TokenFactor } from "./text-similarity.js";

/**
 * How much of a stored title (weighted share of its tokens) a cluster member must echo for the
 * two to be the same problem, wherever its lines moved. Matching is one to one and best first,
 * so a low bar still pairs each problem with its closest counterpart.
 */
export const ROUND_MATCH_THRESHOLD = 0.25;
/**
 * Added to a member's likeness when it claims the same kind of defect as the stored title
 * (see `problem-kind.ts`): a problem reworded by another model in round 2 often keeps its kind
 * and few of its words ("Insecure deserialization (pickle)" / "`pickle.loads` allows RCE").
 */
export const ROUND_KIND_BONUS = 0.2;

interface Candidate {
  previous: number;
  cluster: number;
  score: number;
  distance: number;
}

function lineDistance(previous: PreviousFinding, cluster: Cluster): number {
  return Math.min(...cluster.findings.map((finding) => Math.abs(finding.line - previous.line)));
}

/** Weighted share of `part`'s tokens that `whole` also has. */
function coverage(
  part: ReadonlyMap<string, number>,
  whole: ReadonlyMap<string, number>,
  factor: TokenFactor,
): number {
  let total = 0;
  let covered = 0;
  for (const [token, weight] of part) {
    const scaled = weight * factor(token);
    total += scaled;
    if (whole.has(token)) {
      covered += scaled;
    }
  }
  return total === 0 ? 0 : covered / total;
}

/**
 * The stored title is short and a member's text long, so the measure is asymmetric: how much
 * of the stored claim some member of the cluster still makes (best member wins).
 */
function likeness(stored: StoredTitle, members: readonly Member[], factor: TokenFactor): number {
  let best = 0;
  for (const member of members) {
    // A member claiming another kind of defect is another problem, whatever words it shares.
    if (kindsConflict(stored.kinds, member.kinds)) continue;
    const bonus = kindsAgree(stored.kinds, member.kinds) ? ROUND_KIND_BONUS : 0;
    best = Math.max(
      best,
      coverage(stored.profile.titleWeights, member.profile.weights, factor) + bonus,
    );
  }
  return best;
}

/** A stored title (all a previous round keeps of a problem) and the kinds it claims. */
interface StoredTitle {
  profile: TextProfile;
  kinds: FindingKinds;
}

/** A member of this round's cluster: its text and the kinds it claims and names. */
interface Member {
  profile: TextProfile;
  kinds: FindingKinds;
}

function groupBy<T>(items: Iterable<T>, keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group === undefined) {
      groups.set(key, [item]);
    } else {
      group.push(item);
    }
  }
  return groups;
}

/** Per file, every previous finding against every cluster whose members echo its title enough. */
function tolerantCandidates(
  previous: readonly PreviousFinding[],
  clusters: readonly Cluster[],
): Candidate[] {
  const currentByFile = groupBy(clusters.entries(), ([, cluster]) => cluster.representative.file);
  const candidates: Candidate[] = [];
  for (const [file, entries] of groupBy(previous.entries(), ([, finding]) => finding.file)) {
    const stored = entries.map(([index, finding]) => ({
      index,
      finding,
      stored: {
        profile: textProfile({ title: finding.title, body: "" }),
        kinds: findingKinds({ title: finding.title, body: "" }),
      },
    }));
    const current = (currentByFile.get(file) ?? []).map(([index, cluster]) => ({
      index,
      cluster,
      members: cluster.findings.map((finding) => ({
        profile: textProfile(finding),
        kinds: findingKinds(finding),
      })),
    }));
    // Words every finding of the file uses (its main function, say) tell problems apart least.
    const factor = inverseDocumentFrequency([
      ...stored.map((entry) => entry.stored.profile),
      ...current.flatMap((entry) => entry.members.map((member) => member.profile)),
    ]);
    for (const old of stored) {
      for (const now of current) {
        const score = likeness(old.stored, now.members, factor);
        if (score >= ROUND_MATCH_THRESHOLD) {
          const distance = lineDistance(old.finding, now.cluster);
          candidates.push({ previous: old.index, cluster: now.index, score, distance });
        }
      }
    }
  }
  return candidates;
}

/** A fingerprint without the ordinal that tells apart same-worded problems of one file. */
function baseFingerprint(fingerprint: string): string {
  return fingerprint.replace(/-\d+$/, "");
}

function exactCandidates(
  previous: readonly PreviousFinding[],
  clusters: readonly Cluster[],
): Candidate[] {
  // The ordinal suffix follows line order, which a round can change: match on the base and
  // let the nearest place decide between same-worded problems.
  const keyOf = (file: string, fingerprint: string) =>
    `${file}\u0000${baseFingerprint(fingerprint)}`;
  const previousByKey = groupBy(previous.entries(), ([, finding]) =>
    keyOf(finding.file, finding.fingerprint),
  );
  const candidates: Candidate[] = [];
  for (const [clusterIndex, cluster] of clusters.entries()) {
    const key = keyOf(cluster.representative.file, cluster.fingerprint);
    for (const [previousIndex, finding] of previousByKey.get(key) ?? []) {
      const distance = lineDistance(finding, cluster);
      candidates.push({ previous: previousIndex, cluster: clusterIndex, score: 1, distance });
    }
  }
  return candidates;
}

const byStrength = (a: Candidate, b: Candidate): number =>
  b.score - a.score || a.distance - b.distance || a.cluster - b.cluster || a.previous - b.previous;

/**
 * Pairs this round's clusters with the previous round's findings, one to one: fingerprint
 * matches first, then the most similar pairs in the same file. Returns cluster index →
 * previous index.
 */
export function matchPreviousFindings(
  previous: readonly PreviousFinding[],
  clusters: readonly Cluster[],
): Map<number, number> {
  const matches = new Map<number, number>();
  const taken = new Set<number>();
  const exact = exactCandidates(previous, clusters).sort(byStrength);
  const tolerant = tolerantCandidates(previous, clusters).sort(byStrength);
  for (const candidate of [...exact, ...tolerant]) {
    if (!matches.has(candidate.cluster) && !taken.has(candidate.previous)) {
      matches.set(candidate.cluster, candidate.previous);
      taken.add(candidate.previous);
    }
  }
  return matches;
}
