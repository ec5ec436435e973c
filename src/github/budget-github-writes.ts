import type { Octokit } from "@octokit/rest";
import { isContentCreating } from "./is-content-creating.js";
import type { BudgetedClient } from "./take-write-grant.js";
import type { WriteBudget } from "./write-budget.js";
import { type BudgetedWrite, WriteGrant } from "./write-grant.js";

/**
 * An Octokit plugin drawing every content-creating request of an installation's client from
 * the write budget before it is sent (`ProbotOctokit.plugin(budgetGitHubWrites(budget))`).
 * The installation is the one the client authenticates as; app-level clients (JWT) create
 * nothing and are not budgeted. A request waits at its priority (`request.gadflyWrite`,
 * normal by default) and gives up with the request's own signal.
 */
export function budgetGitHubWrites(budget: WriteBudget) {
  return (octokit: Pick<Octokit, "hook">, options: { auth?: unknown } = {}): BudgetedClient => {
    const installationId = installationOf(options.auth);
    if (installationId === undefined) return {};
    octokit.hook.wrap("request", async (request, requestOptions) => {
      const { query } = requestOptions as unknown as { query?: unknown };
      if (isContentCreating(requestOptions.method, requestOptions.url, query)) {
        const write = requestOptions.request?.gadflyWrite as BudgetedWrite | undefined;
        if (!(write?.grant?.spend(installationId) ?? false)) {
          await budget.take(
            installationId,
            write?.priority ?? "normal",
            requestOptions.request?.signal,
            write?.maxWaitMs,
          );
        }
      }
      return request(requestOptions);
    });
    return {
      gadflyWrites: {
        take: async (priority, signal) => {
          await budget.take(installationId, priority, signal);
          return new WriteGrant(installationId);
        },
      },
    };
  };
}

function installationOf(auth: unknown): number | undefined {
  if (typeof auth !== "object" || auth === null) return undefined;
  const id = (auth as { installationId?: unknown }).installationId;
  const number = typeof id === "string" ? Number(id) : id;
  return typeof number === "number" && Number.isSafeInteger(number) && number > 0
    ? number
    : undefined;
}
