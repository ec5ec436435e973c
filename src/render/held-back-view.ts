import type { Consensus } from "../consensus/index.js";
import { SEVERITY_EMOJI } from "./format.js";

export interface HeldBackView {
  heldBack: {
    emoji: string;
    title: string;
    file: string;
    line: number;
    model: string;
    dismissal: {
      pullNumber: number;
      actor: string;
      kindLabel: string;
      title: string;
      file: string;
      line: number;
    };
  }[];
  heldBackOmitted: number;
}

/** Each finding held back by a repository-level dismissal, with the one it matched (at most `rowLimit`). */
export function heldBackView(consensus: Consensus, rowLimit: number): HeldBackView {
  const all = consensus.heldBack ?? [];
  return {
    heldBack: all.slice(0, rowLimit).map((finding) => ({
      emoji: SEVERITY_EMOJI[finding.severity],
      title: finding.title,
      file: finding.file,
      line: finding.line,
      model: finding.model,
      dismissal: {
        ...finding.dismissal,
        kindLabel: finding.dismissal.kind === "false_positive" ? "false positive" : "dismissed",
      },
    })),
    heldBackOmitted: Math.max(0, all.length - rowLimit),
  };
}
