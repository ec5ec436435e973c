import type { LanguageModel } from "../llm/language-model.js";
import type { Message } from "../llm/message.js";

export interface TranscriptRecorder {
  model: LanguageModel;
  /** The longest conversation the model was part of, its last answer included. */
  transcript(): Message[];
}

/**
 * Wraps a model to keep the conversation it took part in, without the review
 * loop knowing: for a chat model, each request's messages plus its answer; for
 * an agent CLI, its own transcript plus its last turn.
 */
export function recordTranscript(model: LanguageModel): TranscriptRecorder {
  let longest: Message[] = [];
  const keep = (messages: Message[]) => {
    if (messages.length >= longest.length) longest = messages;
  };
  if (model.kind === "chat") {
    return {
      model: {
        ...model,
        async chat(request) {
          const result = await model.chat(request);
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
      },
      transcript: () => longest,
    };
  }
  return {
    model: {
      ...model,
      async run(request) {
        const result = await model.run(request);
        keep([
          { role: "user", content: request.prompt },
          ...result.transcript,
          { role: "assistant", content: result.text },
        ]);
        return result;
      },
    },
    transcript: () => longest,
  };
}
