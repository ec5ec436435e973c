import { paginate } from "../paginate.js";
import { actingUser, type RepositoryRouteContext } from "../repository-route.js";
import type { RouteResponse } from "../route.js";
import { userJson } from "../views/user-json.js";

/**
 * A comment's reactions (issue comments and review comments alike: ids never collide), as
 * GitHub lists them: oldest first, paginated.
 */
export function listReactions(context: RepositoryRouteContext, commentId: number): RouteResponse {
  const reactions = context.state.reactionsOn(commentId);
  const page = paginate(reactions, context);
  return {
    status: 200,
    json: page.items.map((reaction) => ({
      id: reaction.id,
      user: userJson(reaction.user, context.state.urls),
      content: reaction.content,
      created_at: reaction.createdAt,
    })),
    headers: page.headers,
  };
}

/** Reacts as the acting user: once per user and content (201 the first time, 200 after). */
export function createReaction(context: RepositoryRouteContext, commentId: number): RouteResponse {
  const { state } = context;
  const content = String((context.body as { content?: unknown }).content);
  const user = actingUser(context);
  const existing = state.reactions.find(
    (reaction) =>
      reaction.commentId === commentId &&
      reaction.content === content &&
      reaction.user.id === user.id,
  );
  const reaction = existing ?? {
    id: state.nextId(),
    commentId,
    content,
    user,
    createdAt: state.timestamp(),
  };
  if (existing === undefined) state.reactions.push(reaction);
  return {
    status: existing === undefined ? 201 : 200,
    json: {
      id: reaction.id,
      node_id: Buffer.from(`08:Reaction${reaction.id}`).toString("base64"),
      user: userJson(reaction.user, state.urls),
      content: reaction.content,
      created_at: reaction.createdAt,
    },
  };
}
