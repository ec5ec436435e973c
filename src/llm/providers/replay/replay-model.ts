/**
 * Replay: a provider that answers from recorded files, for tests and the offline demo.
 *
 * Recording format (JSON, one file per (model id, lens), written by `recordingModel`):
 *
 *   <dir>/<model id>/<lens>.json       e.g. recordings/glm-5.2_cloud/security.json
 *
 * In both path segments every character outside [A-Za-z0-9._-] becomes "_", and a segment
 * starting with "." is prefixed with "_" (see recording-path.ts).
 *
 *   {
 *     "format": "gadfly-recording",
 *     "version": 1,
 *     "modelId": "glm-5.2:cloud",            // the board id, as configured
 *     "lens": "security",
 *     "kind": "chat",                        // a chat model: the tool loop's turns
 *     "turns": [
 *       { "requestMessageCount": 2,          // messages in the request that got this answer
 *         "result": { "text": "", "toolCalls": [{ "id": "call_0_0", "name": "read_file",
 *                     "arguments": "{\"path\":\"src/a.ts\"}" }],
 *                     "finishReason": "tool-calls",
 *                     "usage": { "inputTokens": 812, "outputTokens": 25 } } },
 *       { "requestMessageCount": 4, "result": { "text": "VERDICT: …", … } }
 *     ]
 *   }
 *
 * or, for an agent model (an agent CLI), `"kind": "agent"` and
 * `"runs": [{ "result": { "text": "…", "transcript": [Message…], "usage": {…} } }]`.
 *
 * Turns (runs) are answered in order, one per call; results are the ChatResult and
 * AgentRunResult of language-model.ts verbatim. A chat request whose message count differs
 * from the recorded one means the conversation diverged (a changed tool, a changed prompt
 * flow), and replay fails rather than answering out of context. So does a missing file, an
 * invalid one, or a call past the last recorded turn: each a ModelError saying which.
 * Only successful calls are recorded: a retried failure leaves no trace.
 */
import { ModelError } from "../../errors.js";
import type { AgentRunResult, ChatResult, LanguageModel, Usage } from "../../language-model.js";
import type { Message } from "../../message.js";
import { readRecording } from "./read-recording.js";
import { recordingPath } from "./recording-path.js";
import type { AgentRecording, ChatRecording } from "./schema.js";

export interface ReplayModelOptions {
  /** The provider's configured name. */
  provider: string;
  /** The board id, which names the recording. */
  modelId: string;
  lens: string;
  dir: string;
}

/** A model answering from `<dir>/<model id>/<lens>.json`; throws a ModelError if that file is unusable. */
export function createReplayModel(options: ReplayModelOptions): LanguageModel {
  const path = recordingPath(options.dir, options.modelId, options.lens);
  const recording = readRecording(path, options.provider);
  const describe = `${options.provider}: the recording of ${options.modelId} (${options.lens})`;
  let next = 0;
  if (recording.kind === "chat") {
    return {
      kind: "chat",
      provider: options.provider,
      modelId: options.modelId,
      chat: async (request) => {
        const turn = recording.turns[next];
        if (turn === undefined) {
          throw new ModelError(`${describe} has only ${recording.turns.length} turns`);
        }
        if (turn.requestMessageCount !== request.messages.length) {
          throw new ModelError(
            `${describe} diverged at turn ${next + 1}: recorded after ${turn.requestMessageCount} messages, asked after ${request.messages.length}`,
          );
        }
        next += 1;
        return chatResult(turn.result);
      },
    };
  }
  return {
    kind: "agent",
    provider: options.provider,
    modelId: options.modelId,
    run: async () => {
      const run = recording.runs[next];
      if (run === undefined) {
        throw new ModelError(`${describe} has only ${recording.runs.length} runs`);
      }
      next += 1;
      return agentRunResult(run.result);
    },
  };
}

// Fresh objects each time, without the `undefined`s zod's optional fields allow.
function chatResult(recorded: ChatRecording["turns"][number]["result"]): ChatResult {
  return {
    text: recorded.text,
    toolCalls: recorded.toolCalls.map((call) => ({ ...call })),
    finishReason: recorded.finishReason,
    usage: recordedUsage(recorded.usage),
  };
}

function agentRunResult(recorded: AgentRecording["runs"][number]["result"]): AgentRunResult {
  return {
    text: recorded.text,
    transcript: recorded.transcript.map((message) => {
      const copy: Message = { role: message.role, content: message.content };
      if (message.toolCalls !== undefined) {
        copy.toolCalls = message.toolCalls.map((call) => ({ ...call }));
      }
      if (message.toolCallId !== undefined) {
        copy.toolCallId = message.toolCallId;
      }
      return copy;
    }),
    usage: recordedUsage(recorded.usage),
    ...(recorded.toolCalls === undefined ? {} : { toolCalls: { ...recorded.toolCalls } }),
  };
}

/** A recorded usage as a Usage: the cache counts only when the recording has them. */
function recordedUsage(recorded: {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number | undefined;
  cacheWriteTokens?: number | undefined;
}): Usage {
  const usage: Usage = { inputTokens: recorded.inputTokens, outputTokens: recorded.outputTokens };
  if (recorded.cachedInputTokens !== undefined)
    usage.cachedInputTokens = recorded.cachedInputTokens;
  if (recorded.cacheWriteTokens !== undefined) usage.cacheWriteTokens = recorded.cacheWriteTokens;
  return usage;
}
