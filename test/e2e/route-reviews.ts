import { renderLensAnswer } from "../../src/findings/findings-block.js";
import type { LensFinding } from "../../src/findings/schema.js";
import {
  CHALLENGE_LENS,
  type FakeModelRequest,
  type FakeReply,
  QUESTION_LENS,
  SUMMARY_LENS,
} from "../fakes/model-script.js";
import { MODELS, type Stack } from "./harness.js";

/** How the four fake models review the pull requests whose title carries one tag. */
export interface Scenario {
  /** What a model finds through a lens; nothing by default. */
  findings?: (model: string, lens: string, request: FakeModelRequest) => readonly LensFinding[];
  /** Prose before the VERDICT line (e.g. a very long one). */
  prose?: (model: string, lens: string) => string;
  /** A changed file each reviewer reads with `read_file` first; without it, reviewers answer at once. */
  readPath?: string;
  /**
   * How a model answers when another model's lone finding is put to it on cross-examination;
   * `unsure` (no vote either way) by default.
   */
  challenge?: (challenger: string, claim: ChallengedClaim) => ChallengeVerdict;
  /** How the model that reported a finding answers a question asked in its thread. */
  answer?: (model: string, claim: ChallengedClaim, request: FakeModelRequest) => string;
  /** How a model answers when asked for the round's summary of the change (its text). */
  summary?: (model: string, request: FakeModelRequest) => string;
  /** Runs first on every call: a reply it returns (a hang, an error) is sent instead of the answer. */
  intercept?: (request: FakeModelRequest) => FakeReply | undefined | Promise<FakeReply | undefined>;
}

/** The finding a cross-examination request quotes. */
export interface ChallengedClaim {
  title: string;
  file: string;
  line: number;
}

export type ChallengeVerdict = "confirm" | "refute" | "unsure";

export interface ReviewRouter {
  /** Calls per `model/lens` for the tag, answered or not. */
  calls(tag: string): Map<string, number>;
  /** Total calls for the tag. */
  total(tag: string): number;
  /** Calls per model for the tag, whatever lens each call was counted under. */
  perModel(tag: string): Map<string, number>;
}

/**
 * Scripts the four models of the e2e config with one function that picks the
 * scenario by a tag in the PR's title (which every reviewer's first user
 * message quotes), so the tests of one describe can share one app and one
 * pair of fake model servers. A call for no known tag gets a 400, which fails
 * the lens loudly.
 */
export function routeReviews(stack: Stack, scenarios: Record<string, Scenario>): ReviewRouter {
  const counts = new Map<string, Map<string, number>>();
  // A challenge quotes a finding, not the pull request: its tag is the one whose scenario reported it.
  const tagOfTitle = new Map<string, string>();
  const script = async (request: FakeModelRequest): Promise<FakeReply> => {
    const prompt = request.messages.find((message) => message.role === "user")?.content ?? "";
    const quotesClaim = request.lens === CHALLENGE_LENS || request.lens === QUESTION_LENS;
    const claim = quotesClaim ? claimOf(prompt) : undefined;
    const tag =
      claim !== undefined
        ? tagOfTitle.get(claim.title)
        : Object.keys(scenarios).find((candidate) => prompt.includes(candidate));
    const scenario = tag === undefined ? undefined : scenarios[tag];
    if (tag === undefined || scenario === undefined) {
      return { error: 400, body: { error: "no scenario for this pull request" } };
    }
    const lens = request.lens ?? "unknown";
    const perTag = counts.get(tag) ?? new Map<string, number>();
    counts.set(tag, perTag);
    const key = `${request.model}/${lens}`;
    perTag.set(key, (perTag.get(key) ?? 0) + 1);

    const intercepted = await scenario.intercept?.(request);
    if (intercepted !== undefined) return intercepted;
    if (claim !== undefined && request.lens === QUESTION_LENS) {
      return {
        text: scenario.answer?.(request.model, claim, request) ?? `${request.model} answers.`,
      };
    }
    if (claim !== undefined) {
      const verdict = scenario.challenge?.(request.model, claim) ?? "unsure";
      const answer = {
        verdict,
        reason: `${request.model} ${verdict === "unsure" ? "could not tell" : `${verdict}s it`} at ${claim.file}:${claim.line}.`,
        checked: `${claim.file}:${claim.line}`,
      };
      return {
        text: `Checked the place.\n\n\`\`\`gadfly-challenge\n${JSON.stringify(answer)}\n\`\`\``,
      };
    }
    if (request.lens === SUMMARY_LENS) {
      return { text: scenario.summary?.(request.model, request) ?? "SUMMARY:\n- It changes code." };
    }
    const sawTool = request.messages.some((message) => message.role === "tool");
    if (scenario.readPath !== undefined && !sawTool) {
      return { toolCalls: [{ name: "read_file", arguments: { path: scenario.readPath } }] };
    }
    const found = scenario.findings?.(request.model, lens, request) ?? [];
    for (const finding of found) tagOfTitle.set(finding.title, tag);
    const verdict = found.some((finding) => finding.severity === "high")
      ? "Significant issues"
      : found.length > 0
        ? "Minor issues"
        : "No material issues found";
    const prose =
      scenario.prose?.(request.model, lens) ?? `Reviewed the change through the ${lens} lens.`;
    return { text: renderLensAnswer(verdict, found, prose) };
  };
  for (const model of MODELS) {
    (model.provider === "openai" ? stack.openai : stack.ollama).script(model.id, script);
  }
  return {
    calls: (tag) => new Map(counts.get(tag) ?? []),
    total: (tag) => [...(counts.get(tag)?.values() ?? [])].reduce((sum, count) => sum + count, 0),
    perModel: (tag) => {
      const perModel = new Map<string, number>();
      for (const [key, count] of counts.get(tag) ?? []) {
        const model = key.slice(0, key.lastIndexOf("/"));
        perModel.set(model, (perModel.get(model) ?? 0) + count);
      }
      return perModel;
    },
  };
}

/** The claim's title and place, from the lines `claimPrompt` writes (`Place: f:l`, `Title: t`). */
function claimOf(prompt: string): ChallengedClaim | undefined {
  const place = /^Place: (.+):(\d+)(?:-\d+)?$/m.exec(prompt);
  const title = /^Title: (.*)$/m.exec(prompt);
  if (place?.[1] === undefined || place[2] === undefined || title?.[1] === undefined) {
    return undefined;
  }
  return { file: place[1], line: Number(place[2]), title: title[1] };
}
