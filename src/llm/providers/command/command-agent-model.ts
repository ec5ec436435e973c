import { basename } from "node:path";
import type { CommandProviderConfig } from "../../../config/index.js";
import {
  type AgentIsolation,
  type AgentSandbox,
  NO_ISOLATION,
  openAgentSandbox,
} from "../../../sandbox/index.js";
import { abortError } from "../../abort-error.js";
import { InvalidModelResponseError, ModelAbortedError, ModelError } from "../../errors.js";
import type { AgentModel, AgentRunRequest, AgentRunResult } from "../../language-model.js";
import { redactSecrets } from "../../redact-secrets.js";
import { buildChildEnvironment } from "./build-child-environment.js";
import { parseAgentOutput } from "./parse-agent-output.js";
import { runAgentProcess } from "./run-agent-process.js";

export interface CommandAgentModelOptions {
  provider: Pick<CommandProviderConfig, "name" | "command" | "env"> &
    Partial<Pick<CommandProviderConfig, "removePaths" | "writesWorkspace">>;
  /** What the board shows. */
  modelId: string;
  /** Substituted for `{model}` in the command. */
  model: string;
  /** Our environment; only PATH, HOME, LANG and the provider's listed names reach the child. */
  env: Readonly<Record<string, string | undefined>>;
  killGraceMs?: number;
  maxOutputBytes?: number;
  /** How the CLI is kept from the host (detected at start-up); default NO_ISOLATION. */
  isolation?: AgentIsolation | undefined;
  /** Where each run's workspace copy and HOME are made; default the system temporary directory. */
  temporaryRoot?: string | undefined;
}

const DEFAULT_KILL_GRACE_MS = 5_000;
const DEFAULT_MAX_OUTPUT_BYTES = 10 * 1024 * 1024;
const STDERR_TAIL_BYTES = 8 * 1024;
// The reason shown on the board: the last words of stderr, not the whole log.
const REASON_LENGTH = 400;

/**
 * An agent CLI (Claude Code, Codex, Gemini CLI…) run with the prompt on stdin, in a
 * scrubbed copy of the snapshot with a fresh HOME (openAgentSandbox), inside the
 * isolation detected at start-up. The copy and HOME are deleted when the run ends,
 * however it ends.
 */
export function createCommandAgentModel(options: CommandAgentModelOptions): AgentModel {
  const { provider } = options;
  const childEnvironment = buildChildEnvironment(options.env, provider.env);
  // Whatever we hand the child may be a key it could print; none of it is repeated.
  const secrets = provider.env.map((name) => options.env[name]);
  const argv = provider.command.map((part) => part.replaceAll("{model}", options.model));
  const program = basename(argv[0] ?? "command");
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;

  async function run(request: AgentRunRequest): Promise<AgentRunResult> {
    if (request.signal?.aborted) {
      throw abortError(request.signal);
    }
    let sandbox: AgentSandbox;
    try {
      sandbox = await openAgentSandbox({
        snapshot: request.cwd,
        command: argv,
        env: childEnvironment,
        isolation: options.isolation ?? NO_ISOLATION,
        removePaths: provider.removePaths,
        temporaryRoot: options.temporaryRoot,
        shared: request.sharedCopies,
        writesWorkspace: provider.writesWorkspace,
      });
    } catch (error) {
      // The detail (paths, errno) stays in the cause; the board gets the short reason.
      throw new ModelError(`${provider.name}: could not prepare the agent's workspace`, {
        cause: error,
      });
    }
    let outcome: Awaited<ReturnType<typeof runAgentProcess>>;
    try {
      outcome = await runAgentProcess({
        argv: sandbox.argv,
        cwd: sandbox.cwd,
        env: sandbox.env,
        uid: sandbox.uid,
        gid: sandbox.gid,
        stdin: request.prompt,
        signal: request.signal,
        killGraceMs: options.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
        maxOutputBytes,
        stderrTailBytes: STDERR_TAIL_BYTES,
      });
    } finally {
      // runAgentProcess settles only once the agent and its group are gone: nothing writes here any more.
      await sandbox.dispose();
    }
    switch (outcome.kind) {
      case "spawn-failed":
        throw new ModelError(`${provider.name}: cannot run ${program} (${outcome.code})`);
      case "aborted":
        throw request.signal?.aborted ? abortError(request.signal) : new ModelAbortedError();
      case "output-too-large":
        throw new ModelError(
          `${provider.name}: ${program} wrote more than ${formatBytes(maxOutputBytes)} on stdout and was stopped`,
        );
      case "exited":
        break;
    }
    if (outcome.exitCode !== 0) {
      const how =
        outcome.exitCode === null
          ? `was killed by ${outcome.exitSignal}`
          : `exited with code ${outcome.exitCode}`;
      const reason = failureReason(outcome.stderrTail, secrets);
      // The stderr tail is the agent's raw output (paths, whatever a hook printed): it goes
      // to the log with the error; the board says only how the process ended.
      throw new ModelError(
        `${provider.name}: ${program} ${how}${reason === "" ? "" : `: ${reason}`}`,
        { publicMessage: `${provider.name}: ${program} ${how} (its error output is in the log)` },
      );
    }
    const result = parseAgentOutput(outcome.stdout);
    if (result.text.trim() === "" && result.transcript.length === 0) {
      throw new InvalidModelResponseError(`${provider.name}: ${program} wrote no answer on stdout`);
    }
    return result;
  }

  return { kind: "agent", provider: provider.name, modelId: options.modelId, run };
}

function failureReason(stderrTail: string, secrets: readonly (string | undefined)[]): string {
  const text = redactSecrets(stderrTail, secrets).replace(/\s+/g, " ").trim();
  // The tail was cut at a byte count: keep the end, which is where the error is.
  return text.length <= REASON_LENGTH ? text : `…${text.slice(text.length - REASON_LENGTH)}`;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${bytes} bytes`;
}
