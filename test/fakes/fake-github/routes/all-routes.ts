import { graphqlRoutes } from "../graphql/graphql-route.js";
import type { Route } from "../route.js";
import { appRoutes } from "./app-routes.js";
import { checkRunRoutes } from "./check-run-routes.js";
import { commentRoutes } from "./comment-routes.js";
import { compareRoutes } from "./compare-routes.js";
import { pullRequestRoutes } from "./pull-request-routes.js";
import { repositoryRoutes } from "./repository-routes.js";
import { reviewRoutes } from "./review-routes.js";

/** Every endpoint the fake serves. */
export const allRoutes: readonly Route[] = [
  ...appRoutes,
  ...repositoryRoutes,
  ...pullRequestRoutes,
  ...compareRoutes,
  ...commentRoutes,
  ...reviewRoutes,
  ...checkRunRoutes,
  ...graphqlRoutes,
];
