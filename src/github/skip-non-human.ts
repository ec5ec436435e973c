/** Who a webhook names as acting: a comment's `user` or an event's `sender`. */
export interface Actor {
  login: string;
  type?: string | undefined;
}

/** The words of each skip, per event: what the handlers report (and tests expect) unchanged. */
const REASONS = {
  comment: {
    missing: "comment without an author",
    ours: "our own comment",
    bot: "comment by a bot",
  },
  resolution: { missing: "no sender", ours: "our own resolution", bot: "resolved by a bot" },
} as const;

/**
 * The one check the feedback and trigger handlers share before anything else: an event with no
 * actor, our own (the app's login, any case) or another bot's does nothing. Returns why it is
 * skipped, or the actor (a person) to go on with.
 */
export function skipNonHuman<A extends Actor>(
  actor: A | null | undefined,
  botLogin: string,
  event: keyof typeof REASONS,
): { skip: string } | { actor: A } {
  const reasons = REASONS[event];
  if (actor === null || actor === undefined) return { skip: reasons.missing };
  if (actor.login.toLowerCase() === botLogin.toLowerCase()) return { skip: reasons.ours };
  if (actor.type === "Bot") return { skip: reasons.bot };
  return { actor };
}
