import type { IssueCommentRecord, ReactionRecord, SiteUrls } from "../types.js";
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
  const count = (content: string) =>
    reactions.filter((reaction) => reaction.content === content).length;
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
    reactions: {
      url: `${apiUrl}/issues/comments/${comment.id}/reactions`,
      total_count: reactions.length,
      "+1": count("+1"),
      "-1": count("-1"),
      laugh: count("laugh"),
      hooray: count("hooray"),
      confused: count("confused"),
      heart: count("heart"),
      rocket: count("rocket"),
      eyes: count("eyes"),
    },
  };
}
