import {
  execute,
  type GraphQLError,
  type GraphQLFieldResolver,
  getOperationAST,
  Kind,
  parse,
  validate,
} from "graphql";
import { githubError } from "../github-error.js";
import type { Route, RouteContext, RouteResponse } from "../route.js";
import { FakeGraphqlError } from "./fake-graphql-error.js";
import type { GraphqlFailure } from "./graphql-failure.js";
import { mutationRoot, queryRoot } from "./graphql-objects.js";
import { loadGraphqlSchema } from "./load-graphql-schema.js";

interface GraphqlBody {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

const authenticationRequired = {
  message: "This endpoint requires you to be authenticated.",
  documentation_url:
    "https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql",
};

/**
 * GitHub's GraphQL endpoint: every request parsed and validated against GitHub's published
 * schema (`@octokit/graphql-schema`), then executed over the fake's state. Like GitHub, an
 * invalid query is answered 200 with `errors` (and no `data`); the fake also records it, with
 * any field it does not serve, in `fake.graphqlErrors`.
 */
export const graphqlRoutes: Route[] = [
  { method: "POST", path: "/graphql", validateBody: false, handle: answerGraphql },
];

async function answerGraphql(context: RouteContext): Promise<RouteResponse> {
  const { identity, state } = context;
  if (identity.kind === "invalid") return githubError(401, identity.message);
  if (identity.kind === "anonymous") return { status: 401, json: authenticationRequired };
  if (identity.kind === "jwt") {
    return githubError(
      401,
      "A JSON web token cannot be used here: use an installation access token",
    );
  }
  const body = (context.body ?? {}) as GraphqlBody;
  const variables =
    typeof body.variables === "object" && body.variables !== null
      ? (body.variables as Record<string, unknown>)
      : undefined;
  const query = typeof body.query === "string" ? body.query : undefined;
  const refuse = (errors: GraphqlFailure["errors"]): RouteResponse => {
    state.graphqlFailures.push({ kind: "invalid", query: query ?? "", variables, errors });
    return { status: 200, json: { errors } };
  };
  if (query === undefined) {
    return refuse([{ message: "A query attribute must be specified and must be a string." }]);
  }
  const schema = await loadGraphqlSchema();
  let document: ReturnType<typeof parse>;
  try {
    document = parse(query);
  } catch (error) {
    return refuse([errorJson(error as GraphQLError)]);
  }
  const invalid = validate(schema, document);
  if (invalid.length > 0) return refuse(invalid.map(errorJson));
  const operationName = typeof body.operationName === "string" ? body.operationName : undefined;
  const operation = getOperationAST(document, operationName);
  const fault = takeFault(state, operation);
  if (fault !== undefined) {
    return {
      status: 200,
      json: {
        data: { [fault.field]: null },
        errors: [{ type: fault.type, path: [fault.field], message: fault.message }],
      },
    };
  }
  const caller = { state, identity };
  const result = await execute({
    schema,
    document,
    variableValues: variables,
    operationName,
    rootValue: operation?.operation === "mutation" ? mutationRoot(caller) : queryRoot(caller),
    fieldResolver,
  });
  const errors = (result.errors ?? []).map((error) => ({ error, json: errorJson(error) }));
  for (const kind of ["invalid", "unsupported"] as const) {
    const recorded = errors.filter(({ error }) => failureKind(error) === kind);
    if (recorded.length > 0) {
      state.graphqlFailures.push({
        kind,
        query,
        variables,
        errors: recorded.map(({ json }) => json),
      });
    }
  }
  return {
    status: 200,
    json: {
      ...(result.data === undefined ? {} : { data: result.data }),
      ...(errors.length === 0 ? {} : { errors: errors.map(({ json }) => json) }),
    },
  };
}

// A scripted error for a root field the operation selects (after validation: an invalid query
// is still recorded as such).
function takeFault(
  state: RouteContext["state"],
  operation: ReturnType<typeof getOperationAST>,
): RouteContext["state"]["graphqlFaults"][number] | undefined {
  const fields = new Set(
    (operation?.selectionSet.selections ?? []).flatMap((selection) =>
      selection.kind === Kind.FIELD ? [selection.name.value] : [],
    ),
  );
  const index = state.graphqlFaults.findIndex((fault) => fields.has(fault.field));
  return index < 0 ? undefined : state.graphqlFaults.splice(index, 1)[0];
}

// A field the fake's objects leave out is one it does not serve: said, never answered null.
const fieldResolver: GraphQLFieldResolver<unknown, unknown> = (source, args, _context, info) => {
  const value = (source as Record<string, unknown> | null)?.[info.fieldName];
  if (value === undefined) {
    throw new FakeGraphqlError(
      "FAKE_UNSUPPORTED",
      `The fake GitHub does not serve ${info.parentType.name}.${info.fieldName}`,
      "unsupported",
    );
  }
  return typeof value === "function" ? (value as (input: unknown) => unknown)(args) : value;
};

// Errors without a path (variables that do not fit the operation) are the caller's bug too.
function failureKind(error: GraphQLError): "invalid" | "unsupported" | "answer" {
  const original = error.originalError;
  if (original instanceof FakeGraphqlError) return original.kind;
  return error.path === undefined ? "invalid" : "unsupported";
}

function errorJson(
  error: GraphQLError,
): GraphqlFailure["errors"][number] & Record<string, unknown> {
  const original = error.originalError;
  return {
    ...(original instanceof FakeGraphqlError ? { type: original.type } : {}),
    ...(error.path === undefined ? {} : { path: error.path }),
    ...(error.locations === undefined ? {} : { locations: error.locations }),
    message: error.message,
  };
}
