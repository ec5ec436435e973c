import type { WritePriority } from "./write-budget.js";

/**
 * How a write asks for its token, as the `gadflyWrite` key of Octokit's `request` option:
 * `octokit.rest.issues.updateComment({ …, request: { gadflyWrite: { priority: "board" } } })`.
 * A `grant` taken beforehand (`takeWriteGrant`) pays for the first content-creating request
 * that carries it.
 */
export interface BudgetedWrite {
  priority?: WritePriority;
  grant?: WriteGrant | undefined;
  /** The longest this write waits for its token (shorter than the budget's own), in ms. */
  maxWaitMs?: number;
}

/**
 * How long a write made while a webhook delivery waits for its answer may wait for its token:
 * GitHub gives up on a delivery after 10 s, so a handler must answer well within it.
 */
export const DELIVERY_WRITE_WAIT_MS = 4_000;

/** One token taken ahead of its request, spent by the first request that carries it. */
export class WriteGrant {
  readonly installationId: number;
  private spent = false;

  constructor(installationId: number) {
    this.installationId = installationId;
  }

  /** True once, for a request to the installation the token was taken for. */
  spend(installationId: number): boolean {
    if (this.spent || installationId !== this.installationId) return false;
    this.spent = true;
    return true;
  }
}
