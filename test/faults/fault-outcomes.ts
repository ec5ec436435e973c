import { expect } from "vitest";
import { reportTable } from "../helpers/report.js";

/** One row of the summary table: a fault, what the app did about it, and whether every expectation held. */
export interface FaultOutcome {
  fault: string;
  outcome: string;
  held: boolean;
}

/**
 * Collects one row per fault: `check` runs the fault's assertions and records
 * the outcome it returns (or, when an assertion fails, the failure), so the
 * printed table shows every fault tried, held or not.
 */
export class FaultOutcomes {
  readonly rows: FaultOutcome[] = [];

  constructor(private readonly title: string) {}

  async check(fault: string, assertions: () => Promise<string> | string): Promise<void> {
    try {
      const outcome = await assertions();
      this.rows.push({ fault, outcome, held: true });
    } catch (error) {
      const firstLine = (error instanceof Error ? error.message : String(error)).split("\n", 1)[0];
      this.rows.push({ fault, outcome: `FAILED: ${firstLine ?? ""}`, held: false });
      throw error;
    }
  }

  /** Prints the table, then fails unless every fault was tried and every row held. */
  print(expectedFaults: number): void {
    const held = this.rows.filter((row) => row.held).length;
    console.log(`\n${this.title}: ${this.rows.length} tried, ${held} held`);
    reportTable(
      this.rows.map((row) => ({
        fault: row.fault,
        outcome: row.outcome,
        held: row.held ? "yes" : "NO",
      })),
    );
    expect(this.rows).toHaveLength(expectedFaults);
    expect(this.rows.filter((row) => !row.held)).toEqual([]);
  }
}
