import type { BoundGit } from "./run-git.js";

export interface ChangeDescription {
  title: string;
  description: string;
}

export interface DescribeChangeInput {
  /** The commit range's start; null when the base is the empty tree (all history is in range). */
  baseCommit: string | null;
  /** The head commit; null in a repository with no commit yet. */
  headCommit: string | null;
  /** A name for the head when the range holds several commits (the branch or the ref given). */
  headName: string | null;
  /** The working tree differs from the head commit (uncommitted or untracked files). */
  uncommitted: boolean;
}

/** Commits listed in the description; the rest are counted. */
const MAX_LISTED_COMMITS = 20;
const MAX_DESCRIPTION_CHARS = 8000;
const RECORD = "\x1e";
const FIELD = "\x1f";

/**
 * A title and description for the reviewers, as a pull request would have: one commit gives its
 * subject and body; several give the branch name and their messages (newest first); a change
 * that is only in the working tree is "Uncommitted changes".
 */
export async function describeChange(
  git: BoundGit,
  input: DescribeChangeInput,
): Promise<ChangeDescription> {
  const commits = input.headCommit === null ? [] : await readCommits(git, input);
  const total = input.headCommit === null ? 0 : await countCommits(git, input);
  const note = input.uncommitted && total > 0 ? "\n\nIncludes uncommitted changes." : "";
  const [only] = commits;
  if (total === 0 || only === undefined) {
    return {
      title: input.uncommitted ? "Uncommitted changes" : (input.headName ?? "No new commits"),
      description: input.uncommitted ? "Uncommitted changes in the working tree." : "",
    };
  }
  if (total === 1) {
    return { title: only.subject, description: limit(only.body) + note };
  }
  const listed = commits.map((commit) =>
    commit.body === "" ? `- ${commit.subject}` : `- ${commit.subject}\n\n${indent(commit.body)}`,
  );
  if (total > commits.length) listed.push(`- … and ${total - commits.length} more commits`);
  return {
    title: input.headName ?? `${total} commits`,
    description: limit(`${total} commits:\n\n${listed.join("\n")}`) + note,
  };
}

interface Commit {
  subject: string;
  body: string;
}

function range(input: DescribeChangeInput): string[] {
  const head = input.headCommit ?? "HEAD";
  return input.baseCommit === null ? [head] : [`${input.baseCommit}..${head}`];
}

async function readCommits(git: BoundGit, input: DescribeChangeInput): Promise<Commit[]> {
  // --no-show-signature: log.showSignature in the user's config would mix gpg output in.
  const output = await git([
    "log",
    "--no-show-signature",
    "--no-merges",
    `--max-count=${MAX_LISTED_COMMITS}`,
    `--format=${RECORD}%s${FIELD}%b`,
    ...range(input),
    "--",
  ]);
  return output
    .split(RECORD)
    .slice(1)
    .map((record) => {
      const [subject = "", body = ""] = record.split(FIELD);
      return { subject: subject.trim(), body: body.trim() };
    });
}

async function countCommits(git: BoundGit, input: DescribeChangeInput): Promise<number> {
  const output = await git(["rev-list", "--count", "--no-merges", ...range(input), "--"]);
  return Number.parseInt(output.trim(), 10) || 0;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => (line === "" ? "" : `  ${line}`))
    .join("\n");
}

function limit(text: string): string {
  return text.length <= MAX_DESCRIPTION_CHARS ? text : `${text.slice(0, MAX_DESCRIPTION_CHARS)}…`;
}
