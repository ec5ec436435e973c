/**
 * An error a resolver raises, answered in GitHub's shape (`type`, `path`, `message`). `kind`
 * says whether the fake records it: `invalid` (the caller misused the API, e.g. no `first`),
 * `unsupported` (the fake does not serve the field) or `answer` (GitHub would say the same to
 * a correct request: not found, forbidden).
 */
export class FakeGraphqlError extends Error {
  readonly type: string;
  readonly kind: "invalid" | "unsupported" | "answer";

  constructor(type: string, message: string, kind: "invalid" | "unsupported" | "answer") {
    super(message);
    this.type = type;
    this.kind = kind;
  }
}
