import type { LanguageModel, Message, Redactor } from "../llm/index.js";
import { createRedactor, wrapLanguageModel } from "../llm/index.js";

export interface TranscriptRecorder {
  model: LanguageModel;
  /**
   * The conversations the model was part of, each at its longest with its last answer, one
   * after the other (a chat review, then its verify session), secrets redacted.
   */
  transcript(): Message[];
}

/**
 * What a chat session is known by: its first two messages, serialised, for one recorder. Each
 * content stands in the key as a number (the same text, the same number), so the opening (the
 * diff summary, tens of KB) is not escaped into a key per session; the key tells sessions apart
 * exactly as the messages' own JSON would. The tool loop sends the same message objects every
 * turn, so each (first, second) pair's key is kept too; weakly, so nothing outlives the
 * conversation.
 */
function sessionKeys(): (messages: readonly Message[]) => string {
  const textIds = new Map<string, number>();
  const keysByOpening = new WeakMap<Message, WeakMap<Message, string>>();
  const numbered = (message: Message) => {
    let id = textIds.get(message.content);
    if (id === undefined) {
      id = textIds.size;
      textIds.set(message.content, id);
    }
    return { ...message, content: id };
  };
  return (messages) => {
    const [first, second] = messages;
    if (first === undefined || second === undefined) {
      return JSON.stringify(messages.slice(0, 2).map(numbered));
    }
    let bySecond = keysByOpening.get(first);
    if (bySecond === undefined) {
      bySecond = new WeakMap();
      keysByOpening.set(first, bySecond);
    }
    let key = bySecond.get(second);
    if (key === undefined) {
      key = JSON.stringify([numbered(first), numbered(second)]);
      bySecond.set(second, key);
    }
    return key;
  };
}

/**
 * Wraps a model to keep the conversation it took part in, without the review
 * loop knowing: for a chat model, each request's messages plus its answer; for
 * an agent CLI, its own transcript plus its last turn. What it hands out is
 * redacted of `secrets` (and of credential shapes): transcripts are stored, and a
 * model that read a key from a file or an error may have repeated it. A round passes its own
 * redactor instead of the secrets, shared by its lenses (memoizeRedactor).
 */
export function recordTranscript(
  model: LanguageModel,
  secrets: readonly string[] | Redactor,
): TranscriptRecorder {
  let longest: Message[] = [];
  const keep = (messages: Message[]) => {
    if (messages.length >= longest.length) longest = messages;
  };
  // A chat session is known by how it opens (its system text and first user message): the
  // verify pass is a session of its own, kept next to the review's instead of losing to it.
  const sessions = new Map<string, Message[]>();
  const sessionKey = sessionKeys();
  const keepSession = (messages: Message[]) => {
    const key = sessionKey(messages);
    if (messages.length >= (sessions.get(key)?.length ?? 0)) sessions.set(key, messages);
  };
  const redact = typeof secrets === "function" ? secrets : createRedactor(secrets);
  const transcript = () =>
    (sessions.size > 0 ? [...sessions.values()].flat() : longest).map((message) =>
      redactMessage(message, redact),
    );
  return {
    model: wrapLanguageModel(model, {
      async chat(request, next) {
        const result = await next(request);
        keepSession([
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
