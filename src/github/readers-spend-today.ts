import { roundUsage, type UsageFigures } from "../accounting/index.js";
import type { PriceTable } from "../config/index.js";
import type { RunStore } from "../run/store/index.js";

const DAY_MS = 86_400_000;

/**
 * What every reader round of the installation spent since 00:00 UTC (lens runs and
 * cross-examination sessions, aborted ones at their estimate), `exceptRound`'s own left out:
 * what `readers.dailyShare` of the daily caps is checked against.
 */
export async function readersSpendToday(
  store: Pick<RunStore, "installationSpend">,
  query: { installationId: number; now: number; pricing?: PriceTable | undefined },
  exceptRound?: string,
): Promise<UsageFigures> {
  const since = new Date(Math.floor(query.now / DAY_MS) * DAY_MS);
  const spent = await store.installationSpend(query.installationId, since, exceptRound, {
    readersOnly: true,
  });
  return roundUsage({
    reports: [],
    challenges: spent,
    ...(query.pricing === undefined ? {} : { pricing: query.pricing }),
  }).total;
}
