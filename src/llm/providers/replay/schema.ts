import { z } from "zod";

// The recording format is described at the top of replay-model.ts.

export const RECORDING_FORMAT = "gadfly-recording";
export const RECORDING_VERSION = 1;

const RecordedToolCall = z.strictObject({
  id: z.string(),
  name: z.string(),
  arguments: z.string(),
});

const RecordedMessage = z.strictObject({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.string(),
  toolCalls: z.array(RecordedToolCall).optional(),
  toolCallId: z.string().optional(),
});

const RecordedUsage = z.strictObject({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative().optional(),
  cacheWriteTokens: z.number().int().nonnegative().optional(),
});

const RecordedChatResult = z.strictObject({
  text: z.string(),
  toolCalls: z.array(RecordedToolCall),
  finishReason: z.enum(["stop", "tool-calls", "length", "content-filter", "error", "other"]),
  usage: RecordedUsage,
});

const RecordedAgentRunResult = z.strictObject({
  text: z.string(),
  transcript: z.array(RecordedMessage),
  usage: RecordedUsage,
  toolCalls: z
    .strictObject({
      attempted: z.number().int().nonnegative(),
      failed: z.number().int().nonnegative(),
    })
    .optional(),
});

const header = {
  format: z.literal(RECORDING_FORMAT),
  version: z.literal(RECORDING_VERSION),
  modelId: z.string(),
  lens: z.string(),
};

export const ChatRecording = z.strictObject({
  ...header,
  kind: z.literal("chat"),
  turns: z.array(
    z.strictObject({
      /** How many messages the request had: replay refuses a conversation that diverged. */
      requestMessageCount: z.number().int().nonnegative(),
      result: RecordedChatResult,
    }),
  ),
});
export type ChatRecording = z.infer<typeof ChatRecording>;

export const AgentRecording = z.strictObject({
  ...header,
  kind: z.literal("agent"),
  runs: z.array(z.strictObject({ result: RecordedAgentRunResult })),
});
export type AgentRecording = z.infer<typeof AgentRecording>;

export const Recording = z.discriminatedUnion("kind", [ChatRecording, AgentRecording]);
export type Recording = z.infer<typeof Recording>;
