import { z } from "zod";

/*
 * The fields of each webhook payload that Gadfly reads, validated before any
 * handler runs: a malformed delivery is logged with its id and starts nothing.
 * Objects are not strict: GitHub adds fields all the time.
 */

const Installation = z.object({ id: z.number().int().positive() });
const Repository = z.object({
  name: z.string().min(1).max(100),
  owner: z.object({ login: z.string().min(1).max(100) }),
});
const Sha = z.string().regex(/^[0-9a-f]{40}$/, "a 40-character commit SHA");
const Id = z.number().int().positive();

export const PullRequestPayload = z.object({
  action: z.enum([
    "opened",
    "synchronize",
    "reopened",
    "ready_for_review",
    "edited",
    "labeled",
    "unlabeled",
  ]),
  // `edited`: what changed; only a new base starts a round.
  changes: z
    .object({ base: z.object({}).passthrough().optional() })
    .passthrough()
    .optional(),
  installation: Installation,
  repository: Repository,
  pull_request: z.object({
    number: Id,
    // GitHub caps titles far below this; a payload beyond it is not GitHub's.
    title: z.string().max(4096).optional(),
    state: z.enum(["open", "closed"]),
    draft: z.boolean().optional(),
    head: z.object({ sha: Sha }),
  }),
});

export const IssueCommentPayload = z.object({
  action: z.literal("created"),
  installation: Installation,
  repository: Repository,
  issue: z.object({
    number: Id,
    pull_request: z.object({ url: z.string().optional() }).optional(),
  }),
  comment: z.object({
    id: Id,
    body: z.string().max(65_536),
    user: z.object({ login: z.string().min(1), type: z.string() }).nullable(),
    author_association: z.string(),
  }),
});

export const CheckRunPayload = z.object({
  action: z.literal("rerequested"),
  installation: Installation,
  repository: Repository,
  sender: z.object({ login: z.string().min(1) }),
  check_run: z.object({
    id: Id,
    name: z.string(),
    head_sha: Sha,
    app: z.object({ id: Id }).nullable(),
    pull_requests: z.array(z.object({ number: Id })),
  }),
});

const Author = z.object({ login: z.string().min(1), type: z.string() });

/** A review comment (a reply on one of our threads may be a feedback command). */
export const ReviewCommentPayload = z.object({
  action: z.literal("created"),
  installation: Installation,
  repository: Repository,
  pull_request: z.object({ number: Id }),
  comment: z.object({
    id: Id,
    body: z.string().max(65_536),
    user: Author.nullable(),
    in_reply_to_id: Id.nullish(),
  }),
});

/** A review thread resolved by someone (a person resolving our thread without a fix). */
export const ReviewThreadPayload = z.object({
  action: z.literal("resolved"),
  installation: Installation,
  repository: Repository,
  pull_request: z.object({ number: Id }),
  sender: Author,
  thread: z.object({
    comments: z.array(z.object({ id: Id, in_reply_to_id: Id.nullish() })).max(10_000),
  }),
});

/** Null when the payload holds what Gadfly reads; otherwise a short reason naming the field. */
export function payloadProblem(schema: z.ZodType, payload: unknown): string | null {
  const result = schema.safeParse(payload);
  if (result.success) return null;
  const issue = result.error.issues[0];
  return issue === undefined
    ? "invalid payload"
    : `${issue.path.join(".") || "payload"}: ${issue.message}`;
}
