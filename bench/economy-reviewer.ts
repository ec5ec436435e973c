import {
  CHALLENGE_LENS,
  type FakeModelRequest,
  type FakeReply,
} from "../test/fakes/model-script.js";
import { type PacedReviewerOptions, pacedReviewer } from "./paced-reviewer.js";

/** A listed file whose hunks the compact first message leaves to `get_diff`. */
const NOT_SHOWN = /^\S+ (\S+) \(\+\d+ -\d+\) — not shown/gm;

/**
 * The economy benchmark's fake reviewer: the paced reviewer's turns (reads, then two findings,
 * the verify pass at once), the same in both arms, with two differences that keep the arms
 * honest. Where the first message leaves files' hunks out (the compact prompt), a reading turn
 * reads one of those patches with `get_diff` instead of a file, as a reviewer that wants the
 * rest of the change would; and a cross-examination or re-check session answers its claim
 * (confirmed) instead of an unparseable review, so neither arm pays for a confused session.
 */
export function economyReviewer(
  options: PacedReviewerOptions,
): (request: FakeModelRequest) => FakeReply {
  const paced = pacedReviewer(options);
  return (request) => {
    if (request.lens === CHALLENGE_LENS) return confirmClaim(request);
    const reply = paced(request);
    const call = "toolCalls" in reply ? reply.toolCalls?.[0] : undefined;
    if (call?.name !== "read_file" || !offersTool(request, "get_diff")) return reply;
    const first = request.messages.find((message) => message.role === "user")?.content;
    const unseen = [...String(first ?? "").matchAll(NOT_SHOWN)].map((match) => match[1] ?? "");
    if (unseen.length === 0) return reply;
    const turn = request.messages.filter((message) => message.role === "assistant").length;
    const path = unseen[(turn * 7 + options.models.indexOf(request.model)) % unseen.length] ?? "";
    return { ...reply, toolCalls: [{ name: "get_diff", arguments: { path } }] };
  };
}

function offersTool(request: FakeModelRequest, name: string): boolean {
  return request.tools.some(
    (tool) => (tool as { function?: { name?: unknown } }).function?.name === name,
  );
}

/** Confirms the claim a challenge or re-check quotes (`Place: f:l`). */
function confirmClaim(request: FakeModelRequest): FakeReply {
  const prompt = request.messages.find((message) => message.role === "user")?.content ?? "";
  const place = /^Place: (.+?)(?:-\d+)?$/m.exec(String(prompt))?.[1] ?? "the cited place";
  const answer = { verdict: "confirm", reason: `Still there at ${place}.`, checked: place };
  return {
    text: `Checked the place.\n\n\`\`\`gadfly-challenge\n${JSON.stringify(answer)}\n\`\`\``,
  };
}
