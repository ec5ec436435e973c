import type { RepositoryConvention } from "../agent/index.js";
import { ignoreMatcher, type MatchBudget } from "../config/index.js";
import { conventionScope } from "./convention-scope.js";

/*
 * The repository's own conventions, as every lens gets them: the files teams write for coding
 * agents and contributors, read from the pull request's base (never its head: the author must
 * not write the rules of their own review), and the instructions of the repository's config
 * that apply to the changed paths. Both are untrusted text, bounded here.
 */

/**
 * At most 16 KB of each file or instruction is used, 32 KB of conventions in all, and at most 20
 * files are read for one change: they go into the prompt of every (model, lens) reviewer, and
 * the PR's diff needs the room more. (Which files: convention-reads.ts.)
 */
export const CONVENTION_LIMITS = {
  fileBytes: 16 * 1024,
  totalBytes: 32 * 1024,
  files: 20,
} as const;

/** Matcher states all instructions' globs may visit on one change set (see ignoreMatcher). */
const INSTRUCTION_MATCH_STEPS = 4_000_000;

/** A convention file as read from the base: at most `fileBytes` of it. */
export interface ConventionFile {
  path: string;
  text: string;
  /** The file was longer: only its first `fileBytes` are in `text`. */
  cut: boolean;
  /** It applies, but the bound on the number of files kept it from being read (`text` is empty). */
  leftOut?: boolean;
}

/** One `instructions` entry of the repository's config. */
export interface ConventionInstruction {
  paths: readonly string[];
  text: string;
}

/**
 * The text of the first `maxBytes` of a file, cut on a character boundary. Readers pass
 * more bytes than the bound when there are (one is enough) so the cut is known.
 */
export function conventionText(
  bytes: Uint8Array,
  maxBytes: number = CONVENTION_LIMITS.fileBytes,
): { text: string; cut: boolean } {
  if (bytes.length <= maxBytes) return { text: Buffer.from(bytes).toString("utf8"), cut: false };
  let end = maxBytes;
  // Never end inside a UTF-8 sequence: back up over continuation bytes (10xxxxxx).
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return { text: Buffer.from(bytes.subarray(0, end)).toString("utf8"), cut: true };
}

export interface ConventionsInput {
  files: readonly ConventionFile[];
  instructions: readonly ConventionInstruction[];
  /** Every changed path (a rename's old path too): an instruction applies when one matches. */
  changedPaths: readonly string[];
  limits?: { fileBytes: number; totalBytes: number; files?: number };
}

/**
 * What the reviewers are given of the repository's conventions: the config's instructions
 * whose globs match a changed path (written for Gadfly, so first), then the files; each at
 * most `fileBytes`, all together at most `totalBytes`. What a bound cut or left out says so
 * in a note of ours, never silently.
 */
export function conventionsFor(input: ConventionsInput): RepositoryConvention[] {
  const limits = input.limits ?? CONVENTION_LIMITS;
  const budget: MatchBudget = { steps: INSTRUCTION_MATCH_STEPS };
  const leftOut = input.files.filter((file) => file.leftOut === true);
  const sources: { source: string; text: string; cut: boolean; scope?: string }[] = [
    ...applyingInstructions(input.instructions, input.changedPaths).map(({ index, text }) => ({
      source: `.github/gadfly.yml instructions[${index}] (default branch)`,
      ...conventionText(Buffer.from(text, "utf8"), limits.fileBytes),
    })),
    ...input.files.flatMap((file) => {
      if (file.leftOut === true) return [];
      const scope = conventionScope(file, input.changedPaths, budget);
      if (!scope.applies) return [];
      return [
        {
          source: file.path,
          scope: scope.scope,
          ...conventionText(Buffer.from(scope.text, "utf8"), limits.fileBytes),
          ...(file.cut ? { cut: true } : {}),
        },
      ];
    }),
  ].filter((entry) => entry.text.trim() !== "");

  let left = limits.totalBytes;
  const shown = sources.map(({ source, text, cut, scope }): RepositoryConvention => {
    const entry = limitedEntry({ source, text, cut }, left, limits);
    left -= Buffer.byteLength(entry.text, "utf8");
    return scope === undefined || entry.text === "" ? entry : { ...entry, scope };
  });
  if (leftOut.length === 0) return shown;
  return [
    ...shown,
    {
      source: [
        ...leftOut.slice(0, 5).map((file) => file.path),
        ...(leftOut.length > 5 ? [`${leftOut.length - 5} more`] : []),
      ].join(", "),
      text: "",
      note: `[cut] left out: at most ${limits.files ?? CONVENTION_LIMITS.files} convention files are read for one change, and the ones above used them.`,
    },
  ];
}

/** One source within the bytes `left` of the total, with our note when a bound cut it. */
function limitedEntry(
  { source, text, cut }: { source: string; text: string; cut: boolean },
  left: number,
  limits: { fileBytes: number; totalBytes: number },
): RepositoryConvention {
  const kept = conventionText(Buffer.from(text, "utf8"), left);
  if (kept.text === "") {
    return {
      source,
      text: "",
      note: `[cut] left out: the conventions are bounded to ${limits.totalBytes} bytes in all, and the ones above used them.`,
    };
  }
  if (kept.cut) {
    return {
      source,
      text: kept.text,
      note: `[cut] only its first ${Buffer.byteLength(kept.text, "utf8")} bytes are shown: the conventions are bounded to ${limits.totalBytes} bytes in all.`,
    };
  }
  if (cut) {
    return {
      source,
      text: kept.text,
      note: `[cut] only its first ${Buffer.byteLength(kept.text, "utf8")} bytes are shown: each file is bounded to ${limits.fileBytes} bytes.`,
    };
  }
  return { source, text: kept.text };
}

/** The instructions a changed path matches, with their index in the config. */
function applyingInstructions(
  instructions: readonly ConventionInstruction[],
  changedPaths: readonly string[],
): { index: number; text: string }[] {
  if (instructions.length === 0) return [];
  const steps = Math.max(1, Math.floor(INSTRUCTION_MATCH_STEPS / instructions.length));
  return instructions.flatMap((instruction, index) => {
    let matcher: ReturnType<typeof ignoreMatcher>;
    try {
      matcher = ignoreMatcher(instruction.paths, steps);
    } catch {
      // The config validated its globs; one that still does not compile selects nothing
      // rather than failing the round.
      return [];
    }
    // "unchecked" (the budget ran out: nobody knows) gives the instruction rather than
    // withholding it: a convention too many costs bytes within the bound, not a wrong review.
    const applies = changedPaths.some((path) => matcher.check(path) !== "kept");
    return applies ? [{ index, text: instruction.text }] : [];
  });
}
