import { startsWithMarker, threadAnswerMarker } from "../render/index.js";
import type { GitHubClient } from "./github-client.js";
import { findOwnReply, postOwnReply, type ReplyThread } from "./post-own-reply.js";

/** A `@gadfly` request's thread, and the reply that asked (its marker names it). */
type AnswerTarget = ReplyThread & { replyCommentId: number };

/**
 * Posts our answer under the thread's first comment, once: a reply GitHub created without
 * confirming is found by its marker (the asking reply's id) among our replies on that thread.
 */
export async function postThreadReply(
  octokit: GitHubClient,
  target: AnswerTarget,
  body: string,
  botLogin: string,
): Promise<number> {
  return postOwnReply(octokit, target, body, answerOf(target, botLogin));
}

/** Our reply to `replyCommentId` on the thread, if GitHub has one (found by its marker). */
export async function findThreadReply(
  octokit: GitHubClient,
  target: AnswerTarget,
  botLogin: string,
): Promise<number | null> {
  return findOwnReply(octokit, target, answerOf(target, botLogin));
}

function answerOf(target: AnswerTarget, botLogin: string) {
  const marker = threadAnswerMarker(target.replyCommentId);
  return { botLogin, isOurs: (body: string) => startsWithMarker(body, marker) };
}
