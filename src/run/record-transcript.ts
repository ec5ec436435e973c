import type { LanguageModel, Message } from "../llm/index.js";
import { createRedactor, wrapLanguageModel } from "../llm/index.js";

export interface TranscriptRecorder {
  model: LanguageModel;
  /** The longest conversation the model was part of, its last answer included, secrets redacted. */
  transcript(): Message[];
}

/**
 * Wraps a model to keep the conversation it took part in, without the review
 * loop knowing: for a chat model, each request's messages plus its answer; for
 * an agent CLI, its own transcript plus its last turn. What it hands out is
 * redacted of `secrets` (and of credential shapes): transcripts are stored, and a
 * model that read a key from a file or an error may have repeated it.
 */
export function recordTranscript(
  model: LanguageModel,
  secrets: readonly string[],
): TranscriptRecorder {
  let longest: Message[] = [];
  const keep = (messages: Message[]) => {
    if (messages.length >= longest.length) longest = messages;
  };
  const redact = createRedactor(secrets);
  const transcript = () => longest.map((message) => redactMessage(message, redact));
  return {
    model: wrapLanguageModel(model, {
      async chat(request, next) {
        const result = await next(request);
        keep([
          ...request.messages,
          {
            role: "assistant",
            content: result.text,
            ...(result.toolCalls.length === 0 ? {} : { toolCalls: result.toolCalls }),
          },
        ]);
        return result;
      },
      async run(request, next) {
        const result = await next(request);
        keep([
          { role: "user", content: request.prompt },
          ...result.transcript,
          { role: "assistant", content: result.text },
        ]);
        return result;
      },
    }),
    transcript,
  };
}

/** Text and tool-call arguments both come from the model: both are redacted. */
function redactMessage(message: Message, redact: (text: string) => string): Message {
  return {
    ...message,
    content: redact(message.content),
    ...(message.toolCalls === undefined
      ? {}
      : {
          toolCalls: message.toolCalls.map((call) => ({
            ...call,
            arguments: redact(call.arguments),
          })),
        }),
  };
}
