import type { Finding } from "./finding.js";
import type { FindingTextCache } from "./finding-text-cache.js";
import type { FindingKinds } from "./problem-kind.js";
import type { TextProfile } from "./text-profile.js";

/** An inclusive line range. */
export interface LineRange {
  start: number;
  end: number;
}

/** A finding with what clustering needs precomputed once. */
export interface PreparedFinding {
  finding: Finding;
  /** Position in the canonical order: the final tiebreak everywhere. */
  index: number;
  /** Position of the model in the configured order (unknown models after, by id). */
  modelRank: number;
  profile: TextProfile;
  /** The kinds of defect its title claims and its text names. */
  kinds: FindingKinds;
  /** The finding's own range, then the lines of its own file that its text points at. */
  ranges: LineRange[];
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

export function prepareFinding(
  finding: Finding,
  index: number,
  modelRank: number,
  texts: FindingTextCache,
): PreparedFinding {
  const profile = texts.profile(finding);
  const ranges: LineRange[] = [
    {
      start: Math.min(finding.line, finding.endLine),
      end: Math.max(finding.line, finding.endLine),
    },
  ];
  const ownBaseName = baseName(finding.file);
  for (const reference of profile.references) {
    // A bare ":156" or "line 156" means the finding's own file; a named file must be it.
    if (reference.file === null || baseName(reference.file) === ownBaseName) {
      ranges.push({ start: reference.line, end: reference.endLine });
    }
  }
  return { finding, index, modelRank, profile, kinds: texts.kinds(finding), ranges };
}
