import type { IssueCommentRecord, ReactionRecord, SiteUrls } from "../types.js";
import { reactionRollupJson } from "./reaction-rollup-json.js";
import { userJson } from "./user-json.js";

export type AuthorAssociation = "OWNER" | "MEMBER" | "COLLABORATOR" | "CONTRIBUTOR" | "NONE";

/** An issue comment as the REST API and `issue_comment` webhooks show it. */
export function commentJson(
  comment: IssueCommentRecord,
  association: AuthorAssociation,
  reactions: readonly ReactionRecord[],
  urls: SiteUrls,
): Record<string, unknown> {
  const apiUrl = `${urls.api}/repos/${comment.owner}/${comment.repo}`;
  return {
    id: comment.id,
    node_id: Buffer.from(`012:IssueComment${comment.id}`).toString("base64"),
    url: `${apiUrl}/issues/comments/${comment.id}`,
    html_url: comment.htmlUrl,
    issue_url: `${apiUrl}/issues/${comment.issueNumber}`,
    body: comment.body,
    user: userJson(comment.user, urls),
    created_at: comment.createdAt,
    updated_at: comment.updatedAt,
    author_association: association,
    performed_via_github_app: null,
    reactions: reactionRollupJson(`${apiUrl}/issues/comments/${comment.id}/reactions`, reactions),
  };
}
