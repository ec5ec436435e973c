/** A GraphQL request the fake answered with errors that are the caller's bug or the fake's gap. */
export interface GraphqlFailure {
  /** `invalid`: not valid against GitHub's schema (or misused it); `unsupported`: valid, but the fake does not serve that field. */
  kind: "invalid" | "unsupported";
  query: string;
  variables: unknown;
  errors: { message: string; path?: readonly (string | number)[] }[];
}
