/**
 * Scripting shared by the fake OpenAI, Ollama and Anthropic servers: what a fake model answers, per
 * model and optionally per lens, as a queue of replies or a function of the request.
 */
import type { IncomingHttpHeaders } from "node:http";

export interface FakeToolCall {
  /** OpenAI answers carry one (a default is made up); Ollama's carry none unless given. */
  id?: string;
  name: string;
  /** Sent verbatim when a string (malformed JSON included), serialised when an object. */
  arguments: string | Record<string, unknown>;
}

/** A normal answer. */
export interface FakeAnswer {
  text?: string;
  toolCalls?: FakeToolCall[];
  /** In the protocol's own vocabulary (OpenAI `finish_reason`, Ollama `done_reason`). */
  finishReason?: string;
  /** In the protocol's own terms: Anthropic's `input_tokens` excludes the cache counts. */
  usage?: {
    inputTokens: number;
    outputTokens: number;
    cachedInputTokens?: number;
    cacheWriteTokens?: number;
  };
  /** Anthropic only: thinking blocks sent before the answer (a signature is made up). */
  thinking?: string[];
  delayMs?: number;
}

/** An HTTP error answer, e.g. `{ error: 429, headers: { "retry-after": "2" } }`. */
export interface FakeErrorReply {
  error: number;
  headers?: Record<string, string>;
  /** JSON when an object, sent as text when a string; a protocol-shaped default otherwise. */
  body?: unknown;
  delayMs?: number;
}

/** Never answers; the request ends only when the client closes the connection. */
export interface FakeHangReply {
  hang: true;
}

/** Destroys the socket without an answer: the client sees a network error. */
export interface FakeDropReply {
  drop: true;
}

export type FakeReply = FakeAnswer | FakeErrorReply | FakeHangReply | FakeDropReply;

export interface FakeMessage {
  role: string;
  content: string | null;
  [key: string]: unknown;
}

export interface FakeModelRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  model: string;
  messages: FakeMessage[];
  tools: unknown[];
  /** The lens the request is for (lensOf), if any. */
  lens: string | undefined;
  /** When the fake received it (epoch ms): a round's calls after its end must be none. */
  receivedAt: number;
}

export type FakeScript =
  | ((request: FakeModelRequest) => FakeReply | Promise<FakeReply>)
  | FakeReply[];

export interface ScriptMatch {
  /** Only requests for this lens (lensOf: `lens: security` in the system prompt or Gadfly's lens heading). */
  lens?: string;
  /** Only requests this predicate accepts. */
  when?: (request: FakeModelRequest) => boolean;
}

interface ScriptEntry {
  model: string;
  match: ScriptMatch;
  script: FakeScript;
}

export type ScriptLookup =
  | { kind: "reply"; reply: FakeReply }
  | { kind: "unknown-model" }
  | { kind: "exhausted" };

/** Scripts registered in order; the first whose model and match fit a request (and that has replies left) answers it. */
export class ModelScripts {
  private readonly entries: ScriptEntry[] = [];

  add(model: string, script: FakeScript, match: ScriptMatch = {}): void {
    // Copied so the caller's array is not consumed behind its back.
    this.entries.push({ model, match, script: Array.isArray(script) ? [...script] : script });
  }

  models(): string[] {
    return [...new Set(this.entries.map((entry) => entry.model))];
  }

  async next(request: FakeModelRequest): Promise<ScriptLookup> {
    const candidates = this.entries.filter((entry) => entry.model === request.model);
    if (candidates.length === 0) {
      return { kind: "unknown-model" };
    }
    // An emptied queue gives way to the next matching script.
    const entry = candidates.find(
      (candidate) =>
        matches(candidate.match, request) &&
        (typeof candidate.script === "function" || candidate.script.length > 0),
    );
    if (entry === undefined) {
      return { kind: "exhausted" };
    }
    if (typeof entry.script === "function") {
      return { kind: "reply", reply: await entry.script(request) };
    }
    const reply = entry.script.shift();
    return reply === undefined ? { kind: "exhausted" } : { kind: "reply", reply };
  }
}

function matches(match: ScriptMatch, request: FakeModelRequest): boolean {
  if (match.lens !== undefined && match.lens !== request.lens) {
    return false;
  }
  return match.when === undefined || match.when(request);
}

/** What the fakes call a cross-examination request (the app's own name for the phase). */
export const CHALLENGE_LENS = "cross-examination";
/** What a question asked in a finding's thread is counted under (answer-question.ts's prompt). */
export const QUESTION_LENS = "thread-question";
/** What the round's summary of the change is counted under (summarize-pull-request.ts's prompt). */
export const SUMMARY_LENS = "summary";

/** Gadfly's lens heading (lensHeading in build-review-prompt.ts), at the start of a line. */
const LENS_HEADING = /^## Your lens: .*\(lens: ([a-z0-9][a-z0-9-]*)\)$/gm;

/**
 * The lens a request is for: from a `lens: <id>` marker in its system messages (a scripted
 * prompt, or Gadfly before the lens left the system text), else from Gadfly's lens heading in
 * a user message before the first answer (the reviews' and verifications' lens message). The
 * last heading there wins: the lens message follows the pull request, whose text may carry a
 * planted one. A cross-examination session (its system prompt asks for a `gadfly-challenge`
 * block) is `cross-examination`.
 */
export function lensOf(messages: readonly FakeMessage[]): string | undefined {
  for (const message of messages) {
    if (
      message.role === "system" &&
      typeof message.content === "string" &&
      message.content.includes("`gadfly-challenge`")
    ) {
      return CHALLENGE_LENS;
    }
    if (
      message.role === "system" &&
      typeof message.content === "string" &&
      message.content.includes("replied on its thread with a question")
    ) {
      return QUESTION_LENS;
    }
    if (
      message.role === "system" &&
      typeof message.content === "string" &&
      message.content.startsWith("You describe a pull request for its reviewers")
    ) {
      return SUMMARY_LENS;
    }
  }
  for (const message of messages) {
    if (message.role === "system" && typeof message.content === "string") {
      // The id ends the marker: "(lens: x)" or a line ending "lens: x", never prose such as
      // the contract's "Stay in your lens: other reviewers…".
      const found = /\blens:\s*([a-z0-9][a-z0-9-]*)(?=\)|[ \t]*$)/im.exec(message.content);
      if (found?.[1] !== undefined) {
        return found[1].toLowerCase();
      }
    }
  }
  let lens: string | undefined;
  for (const message of messages) {
    if (message.role === "assistant") break;
    if (message.role !== "user" || typeof message.content !== "string") continue;
    for (const found of message.content.matchAll(LENS_HEADING)) lens = found[1];
  }
  return lens;
}
