import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";

// GitHub's published schema (the introspection JSON: the package's SDL does not build). Built
// once per process, on the first GraphQL request, and shared by every fake (~0.7 s).
let loading: Promise<GraphQLSchema> | undefined;

export function loadGraphqlSchema(): Promise<GraphQLSchema> {
  loading ??= import("@octokit/graphql-schema").then(({ schema }) =>
    buildClientSchema(schema.json as unknown as IntrospectionQuery),
  );
  return loading;
}
