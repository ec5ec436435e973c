/** How the scoreboard's figures read, the same in `gadfly stats` and on the dashboard. */
export const figureText = {
  /** A rate as a whole percentage; "—" when there was nothing to divide by. */
  percent(rate: number | null): string {
    return rate === null ? "—" : `${Math.round(rate * 100)}%`;
  },
  /** US dollars: cents from $1, a tenth of a cent below; "—" when unknown (no price). */
  dollars(amount: number | null): string {
    if (amount === null) return "—";
    return amount >= 100 ? `$${amount.toFixed(0)}` : `$${amount.toFixed(amount >= 1 ? 2 : 3)}`;
  },
  seconds(milliseconds: number | null): string {
    return milliseconds === null ? "—" : `${(milliseconds / 1000).toFixed(1)} s`;
  },
  tokens(count: number): string {
    if (count >= 1_000_000) return `${(count / 1_000_000).toFixed(2)}M`;
    if (count >= 1_000) return `${(count / 1_000).toFixed(1)}k`;
    return String(Math.round(count));
  },
};
