import type { LensFinding } from "../findings/index.js";

export interface VerifiedMatch {
  /** Original findings the verification kept, as the review reported them. */
  surviving: LensFinding[];
  /** Original findings absent from the verification answer. */
  dropped: LensFinding[];
  /** Entries of the verification answer that match no original: ignored. */
  added: LensFinding[];
}

/** Lines a verifier may have corrected a location by and still mean the same finding. */
const LINE_TOLERANCE = 3;

/**
 * Pairs the verification answer's findings with the review's. Verification
 * may only remove: survivors keep their original wording, and anything the
 * verifier did not have before is set aside. Pairing goes from the strictest
 * key to the loosest (same place and title, then same title, then nearby
 * lines of the same file), each original used at most once.
 */
export function matchVerifiedFindings(
  original: readonly LensFinding[],
  verified: readonly LensFinding[],
): VerifiedMatch {
  const matched = new Set<number>();
  const added: LensFinding[] = [];
  const unpaired = [...verified];
  const passes: ((a: LensFinding, b: LensFinding) => boolean)[] = [
    (a, b) => a.file === b.file && a.line === b.line && sameTitle(a, b),
    (a, b) => a.file === b.file && sameTitle(a, b),
    (a, b) =>
      a.file === b.file &&
      a.line <= b.endLine + LINE_TOLERANCE &&
      b.line <= a.endLine + LINE_TOLERANCE,
  ];
  for (const pairs of passes) {
    for (let index = 0; index < unpaired.length; index++) {
      const candidate = unpaired[index];
      if (candidate === undefined) continue;
      const match = original.findIndex(
        (finding, position) => !matched.has(position) && pairs(finding, candidate),
      );
      if (match === -1) continue;
      matched.add(match);
      unpaired.splice(index, 1);
      index--;
    }
  }
  added.push(...unpaired);
  return {
    surviving: original.filter((_, position) => matched.has(position)),
    dropped: original.filter((_, position) => !matched.has(position)),
    added,
  };
}

function sameTitle(a: LensFinding, b: LensFinding): boolean {
  const normalize = (title: string) =>
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, " ")
      .trim();
  return normalize(a.title) === normalize(b.title);
}
