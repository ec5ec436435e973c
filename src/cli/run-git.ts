import { execFile } from "node:child_process";

export interface RunGitOptions {
  cwd: string;
  /** The environment git sees; the caller passes its own (tests isolate git from the host). */
  env: Readonly<Record<string, string | undefined>>;
  /** Written to git's stdin, e.g. for `hash-object --stdin`. */
  input?: string;
}

/** Runs git with arguments (never a shell) and resolves with its stdout. */
export type GitRunner = (args: readonly string[], options: RunGitOptions) => Promise<string>;

/** A git command that could not run or exited non-zero; `stderr` is git's own explanation. */
export class GitCommandError extends Error {
  readonly args: readonly string[];
  readonly exitCode: number | null;
  readonly stderr: string;
  /** Node's error code when git could not start (e.g. ENOENT: git is not installed). */
  readonly spawnCode: string | null;

  constructor(
    args: readonly string[],
    exitCode: number | null,
    stderr: string,
    spawnCode: string | null,
  ) {
    const reason = firstLine(stderr) ?? spawnCode ?? `exit code ${exitCode}`;
    super(`git ${args[0] ?? ""} failed: ${reason}`);
    this.name = "GitCommandError";
    this.args = args;
    this.exitCode = exitCode;
    this.stderr = stderr;
    this.spawnCode = spawnCode;
  }
}

/** A whole-repository diff can be large; execFile's 1 MB default would cut it. */
const MAX_OUTPUT_BYTES = 512 * 1024 * 1024;

export const runGit: GitRunner = (args, options) =>
  new Promise((resolve, reject) => {
    const child = execFile(
      "git",
      [...args],
      {
        cwd: options.cwd,
        // A read-only tool: never take index.lock for a stat refresh, never prompt for credentials.
        env: { ...options.env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" },
        encoding: "utf8",
        maxBuffer: MAX_OUTPUT_BYTES,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (error === null) {
          resolve(stdout);
          return;
        }
        const code = (error as { code?: unknown }).code;
        reject(
          new GitCommandError(
            args,
            typeof code === "number" ? code : null,
            stderr,
            typeof code === "string" ? code : null,
          ),
        );
      },
    );
    // git may exit before reading its stdin: the EPIPE that follows is not an error of ours.
    child.stdin?.on("error", () => {});
    // Without input, close stdin at once so a git waiting on it cannot hang.
    if (options.input === undefined) child.stdin?.end();
    else child.stdin?.end(options.input);
  });

function firstLine(text: string): string | null {
  const line = text
    .split("\n")
    .map((candidate) => candidate.trim())
    .find((candidate) => candidate !== "");
  return line === undefined ? null : line.replace(/^(fatal|error): /, "");
}

/** A runner bound to one repository and environment: what the helpers of collectLocalChange take. */
export type BoundGit = (args: readonly string[], input?: string) => Promise<string>;
