import { lstat, readFile } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import type { Cluster } from "../consensus/index.js";
import type { ChangedLineIndex } from "../diff/index.js";
import { checkSuggestion, type HeadRead, type SuggestionCandidate } from "./check-suggestion.js";
import { headFile, replacementLines } from "./head-file.js";
import type { SuggestionOutcome } from "./suggestion-outcome.js";
import { defaultSyntaxChecker, type SyntaxChecker } from "./syntax-checker.js";

/**
 * Candidates checked in one round, across its clusters: each check reads and parses a whole
 * file twice, and every candidate is model output a pull request can multiply.
 */
export const MAX_SUGGESTION_CHECKS = 60;
/** Candidates of one cluster checked before the most supported failure is shown. */
export const MAX_CANDIDATES_PER_CLUSTER = 3;
/** A head file larger than this is not read for a suggestion: the suggestion is shown as a diff. */
export const MAX_SUGGESTION_FILE_BYTES = 1024 * 1024;

export interface CheckSuggestionsOptions {
  /** The head's tree (the round's snapshot). */
  workspaceDir: string;
  /** The diff's changed-line index: a suggestion must lie in one hunk of the RIGHT side. */
  index: ChangedLineIndex;
  syntax?: SyntaxChecker;
}

/**
 * Each cluster's suggestion, by fingerprint, for the clusters whose findings proposed one. When
 * its models proposed different replacements, the one that passes every check and that most of
 * them proposed wins (ties to the representative's, then the first); when none passes, the most
 * proposed is shown as a diff with the reason. Clusters are taken in rank order, so the bound
 * (MAX_SUGGESTION_CHECKS) leaves out the least important: those show no suggestion at all.
 */
export async function checkSuggestions(
  clusters: readonly Cluster[],
  options: CheckSuggestionsOptions,
): Promise<Map<string, SuggestionOutcome>> {
  const syntax = options.syntax ?? defaultSyntaxChecker();
  const reads = new Map<string, Promise<HeadRead>>();
  const read = (file: string) => {
    let reading = reads.get(file);
    if (reading === undefined) {
      reading = readHead(options.workspaceDir, file);
      reads.set(file, reading);
    }
    return reading;
  };
  const outcomes = new Map<string, SuggestionOutcome>();
  let budget = MAX_SUGGESTION_CHECKS;
  for (const cluster of clusters) {
    if (budget <= 0) break;
    const candidates = candidatesOf(cluster).slice(0, MAX_CANDIDATES_PER_CLUSTER);
    let shown: SuggestionOutcome | undefined;
    for (const candidate of candidates) {
      if (budget <= 0) break;
      budget--;
      const outcome = await checkSuggestion(
        candidate,
        await read(candidate.file),
        options.index,
        syntax,
      );
      if (outcome.kind === "passed") {
        shown = outcome;
        break;
      }
      shown ??= outcome;
    }
    if (shown !== undefined) outcomes.set(cluster.fingerprint, shown);
  }
  return outcomes;
}

/**
 * A cluster's distinct replacements (same lines, same text but for trailing whitespace), each
 * with the distinct models that proposed it, most supported first; ties keep the members' order,
 * which starts with the representative.
 */
export function candidatesOf(cluster: Cluster): SuggestionCandidate[] {
  const byKey = new Map<string, SuggestionCandidate & { order: number }>();
  cluster.findings.forEach((finding, order) => {
    if (finding.suggestion === undefined) return;
    const text = (replacementLines(finding.suggestion) ?? [finding.suggestion])
      .map((line) => line.trimEnd())
      .join("\n");
    const key = `${finding.file}\u0000${finding.line}\u0000${finding.endLine}\u0000${text}`;
    const known = byKey.get(key);
    if (known === undefined) {
      byKey.set(key, {
        file: finding.file,
        line: finding.line,
        endLine: finding.endLine,
        text: finding.suggestion,
        supporters: [finding.model],
        order,
      });
    } else if (!known.supporters.includes(finding.model)) {
      known.supporters.push(finding.model);
    }
  });
  return [...byKey.values()]
    .sort((a, b) => b.supporters.length - a.supporters.length || a.order - b.order)
    .map(({ order: _order, ...candidate }) => candidate);
}

/** The head's file, confined to the tree (no `..`, no symlink), bounded, text only. */
async function readHead(workspaceDir: string, path: string): Promise<HeadRead> {
  const within = relative(workspaceDir, join(workspaceDir, path));
  if (within === "" || within === ".." || within.startsWith(`..${sep}`) || isAbsolute(within)) {
    return { problem: "its path leaves the repository" };
  }
  const target = join(workspaceDir, within);
  try {
    const info = await lstat(target);
    if (!info.isFile()) return { problem: "it is not a regular file at the head" };
    if (info.size > MAX_SUGGESTION_FILE_BYTES) {
      return { problem: `it is larger than ${MAX_SUGGESTION_FILE_BYTES / 1024 / 1024} MB` };
    }
    const text = await readFile(target, "utf8");
    if (text.includes("\u0000")) return { problem: "it is a binary file" };
    return { head: headFile(text), text };
  } catch (error) {
    return {
      problem:
        (error as NodeJS.ErrnoException).code === "ENOENT"
          ? "it is not in the head's tree"
          : "reading it failed",
    };
  }
}
