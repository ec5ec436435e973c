import { expect, it } from "vitest";
import { buildConsensus } from "../../src/consensus/build-consensus.js";
import { lensFinding } from "../builders/finding.js";
import { lensReport } from "../builders/lens-report.js";

it("credits an 'outside my lens' finding to the lens it names, keeping who reported it", () => {
  const consensus = buildConsensus({
    reports: [
      lensReport({
        model: "alpha",
        lens: "correctness",
        findings: [
          lensFinding({ title: "Off-by-one in paging" }),
          lensFinding({
            file: "src/db.ts",
            line: 9,
            severity: "high",
            title: "SQL injection",
            lens: "security",
            reportedBy: "correctness",
          }),
        ],
      }),
    ],
    modelOrder: ["alpha"],
    lensOrder: ["security", "correctness"],
    providers: { alpha: "p" },
  });
  const lensOf = (title: string) =>
    consensus.clusters.find((cluster) => cluster.representative.title === title)?.representative;
  expect(lensOf("SQL injection")).toMatchObject({ lens: "security", reportedBy: "correctness" });
  expect(lensOf("Off-by-one in paging")?.lens).toBe("correctness");
});
