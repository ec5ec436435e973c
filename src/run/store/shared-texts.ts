import { createHash } from "node:crypto";
import type { Message } from "../../llm/index.js";

/**
 * Message contents at least this long are stored once per round (`transcript_texts`) and
 * referred to by digest: a round's twenty transcripts each begin with the same opening
 * (the system text and the change, tens of KB), which would otherwise be stored twenty times.
 */
export const SHARED_TEXT_CHARS = 4096;

/** A message as a transcript row keeps it: a long content moved out, named by its digest. */
type StoredMessage = Omit<Message, "content"> & { content?: string; contentRef?: string };

export interface SplitTranscript {
  /** The row's `messages` value. */
  json: string;
  /** The round's shared texts this transcript uses, by digest. */
  texts: Map<string, string>;
}

// sha256 of a 26 KB opening is ~40 µs: twenty a round need no cache.
function digestOf(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The transcript row's JSON, with each long content replaced by a reference to its text. */
export function splitSharedTexts(messages: readonly Message[]): SplitTranscript {
  const texts = new Map<string, string>();
  const stored = messages.map((message): StoredMessage => {
    if (message.content.length < SHARED_TEXT_CHARS) return message;
    const digest = digestOf(message.content);
    texts.set(digest, message.content);
    const { content: _moved, ...rest } = message;
    return { ...rest, contentRef: digest };
  });
  return { json: JSON.stringify(stored), texts };
}

/** A transcript row read back: the digests it refers to, and its messages once they are fetched. */
export interface StoredTranscript {
  /** Rows saved before shared texts refer to none. */
  refs: string[];
  /** The messages, each reference replaced by its text; throws on one missing. */
  join(texts: ReadonlyMap<string, string>): Message[];
}

export function readStoredTranscript(json: string): StoredTranscript {
  const stored = JSON.parse(json) as StoredMessage[];
  return {
    refs: stored.flatMap((message) =>
      message.contentRef === undefined ? [] : [message.contentRef],
    ),
    join: (texts) =>
      stored.map((message): Message => {
        if (message.contentRef === undefined) return message as Message;
        const content = texts.get(message.contentRef);
        if (content === undefined) {
          throw new Error(`transcript text ${message.contentRef} is missing from transcript_texts`);
        }
        const { contentRef: _ref, ...rest } = message;
        return { ...rest, content };
      }),
  };
}
