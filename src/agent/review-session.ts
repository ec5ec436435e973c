import type { ToolCallTally, Usage } from "../llm/index.js";
import type { SharedScrubbedCopies } from "../sandbox/index.js";
import type { Clock, Deadline } from "../time/index.js";
import type { BuildOptions } from "./build-review-prompt.js";
import type { RepoTools } from "./repo-tools.js";
import type { ChangedFiles } from "./tools/repo-tool.js";

/** Everything one (model, lens) review shares across its phases: review, repair, verify. */
export interface ReviewSession {
  /** The lens and the pull request, to build the prompt for either kind of model. */
  prompt: BuildOptions;
  tools: RepoTools;
  /** The change's files (what get_diff serves); the verification shows the ones it cites. */
  changes?: ChangedFiles | undefined;
  workspaceRoot: string;
  /** The round's shared agent workspace copies (Workspace.sharedCopies). */
  workspaceCopies?: SharedScrubbedCopies | undefined;
  clock: Clock;
  /** Cancellation from outside: ends the lens as "cancelled". */
  signal: AbortSignal;
  /** The reviewer's whole time budget. */
  deadline: Deadline;
  timeoutSeconds: number;
  maxTurns: number;
  /** The time a tool-free turn (final answer, repair) gets when the budget is spent. */
  graceMs: number;
  maxToolCallsPerTurn: number;
  /** Tool output the whole review may still take (review and verification together). */
  toolOutputBudget: { remainingBytes: number };
  verifyMaxTurns: number;
  /** The tool calls an agent CLI's transcript shows for the review phase. */
  reviewTools: ToolCallTally;
  onTurn(): void;
  onTool(name: string, summary: string): void;
  onUsage(usage: Usage): void;
}
