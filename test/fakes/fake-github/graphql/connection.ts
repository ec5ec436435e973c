import { FakeGraphqlError } from "./fake-graphql-error.js";

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

const maximumPage = 100;

function cursorOf(index: number): string {
  return Buffer.from(`cursor:v2:${index}`).toString("base64");
}

function indexOf(cursor: string): number {
  const match = /^cursor:v2:(\d+)$/.exec(Buffer.from(cursor, "base64").toString("utf8"));
  if (match?.[1] === undefined) {
    throw new FakeGraphqlError(
      "INVALID_CURSOR_ARGUMENTS",
      `\`${cursor}\` does not appear to be a valid cursor.`,
      "invalid",
    );
  }
  return Number(match[1]);
}

/**
 * A connection over `items` the way GitHub pages one: `first` or `last` (1–100) is required,
 * `after` / `before` are opaque cursors; `nodes`, `edges`, `pageInfo` and `totalCount`.
 */
export function connection<T>(
  items: readonly T[],
  args: ConnectionArgs,
  name: string,
): Record<string, unknown> {
  const { first, last } = args;
  if ((first === undefined || first === null) && (last === undefined || last === null)) {
    throw new FakeGraphqlError(
      "MISSING_PAGINATION_BOUNDARIES",
      `You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`,
      "invalid",
    );
  }
  for (const [label, value] of [
    ["first", first],
    ["last", last],
  ] as const) {
    if (value !== undefined && value !== null && (value < 0 || value > maximumPage)) {
      throw new FakeGraphqlError(
        "EXCESSIVE_PAGINATION",
        `Requesting ${value} records on the \`${name}\` connection exceeds the \`${label}\` limit of ${maximumPage} records.`,
        "invalid",
      );
    }
  }
  let start = 0;
  let end = items.length;
  if (args.after) start = Math.max(start, indexOf(args.after) + 1);
  if (args.before) end = Math.min(end, indexOf(args.before));
  let from = start;
  let to = Math.max(start, end);
  if (first !== undefined && first !== null) to = Math.min(to, from + first);
  if (last !== undefined && last !== null) from = Math.max(from, to - last);
  const page = items.slice(from, to);
  return {
    nodes: page,
    edges: page.map((node, offset) => ({ node, cursor: cursorOf(from + offset) })),
    totalCount: items.length,
    pageInfo: {
      hasNextPage: to < end,
      hasPreviousPage: from > start,
      startCursor: page.length === 0 ? null : cursorOf(from),
      endCursor: page.length === 0 ? null : cursorOf(to - 1),
    },
  };
}
