import { readFileSync } from "node:fs";
import type { LensReport } from "../../src/agent/lens-report.js";
import type { Cluster } from "../../src/consensus/cluster.js";
import type { Consensus, ModelSummary } from "../../src/consensus/consensus.js";
import type { Finding } from "../../src/consensus/finding.js";
import type { LensFinding, Severity, Verdict } from "../../src/findings/schema.js";
import type { LensStatus, RoundStatus } from "../../src/run/round-status.js";
import { cluster as clusterOf } from "../builders/consensus.js";
import { makeFinding, withoutAttribution } from "../builders/finding.js";
import { lensReport } from "../builders/lens-report.js";

/**
 * A reference pull request page, as `Consensus` and `RoundStatus` objects:
 * four models, five lenses, six findings (two agreed on by several models).
 * Lens texts are the reference page's, verbatim, in fixtures/reference/.
 */

export const LENSES = [
  "security",
  "correctness",
  "maintainability",
  "performance",
  "error-handling",
];

export const MODELS = [
  { model: "claude-code/opus", provider: "claude-code" },
  { model: "claude-code/sonnet", provider: "claude-code" },
  { model: "glm-5.2:cloud", provider: "ollama-cloud" },
  { model: "kimi-k2.6:cloud", provider: "ollama-cloud" },
] as const;

const NONE: Verdict = "No material issues found";
const MINOR: Verdict = "Minor issues";

/** Per model, the verdict of each lens in LENSES order (the reference status board). */
const LENS_VERDICTS: Record<string, Verdict[]> = {
  "claude-code/opus": [NONE, NONE, MINOR, NONE, MINOR],
  "claude-code/sonnet": [NONE, NONE, MINOR, NONE, NONE],
  "glm-5.2:cloud": [NONE, NONE, MINOR, NONE, NONE],
  "kimi-k2.6:cloud": [NONE, NONE, MINOR, NONE, MINOR],
};

export const HEAD_SHA = "21b4775c0ffee5e1a2b3c4d5e6f708192a3b4c5d";
export const PREVIOUS_HEAD_SHA = "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432";
export const UPDATED_AT = new Date("2026-08-06T00:27:21.512Z");

function referenceText(model: string, lens: string): string {
  const directory = model.replace(/[/:]/g, "-");
  const url = new URL(`./fixtures/reference/${directory}/${lens}.md`, import.meta.url);
  return readFileSync(url, "utf8").trimEnd();
}

function finding(
  model: string,
  lens: string,
  severity: Severity,
  location: [string, number, number],
  title: string,
  body: string,
): Finding {
  const [file, line, endLine] = location;
  return makeFinding({
    model,
    lens,
    severity,
    confidence: "high",
    file,
    line,
    endLine,
    title,
    body,
  });
}

/** A cluster whose models are listed in the page's model order. */
function cluster(fingerprint: string, findings: Finding[]): Cluster {
  const models = MODELS.map((m) => m.model).filter((id) => findings.some((f) => f.model === id));
  return clusterOf(fingerprint, findings, models);
}

const LEADING_MARKER_TITLE =
  "Leading-marker char class `[\\s>#*_+-]*` duplicated between summaryLead and citationLabelRe (comment admits the copy); hoist a shared const";
const LEADING_MARKER_BODY =
  '**`agent/finalize.go:131` / `:156` — duplicated leading-marker character class.** `summaryLead = `[\\s>#*_+-]*`` is a byte-for-byte copy of the leading class in `citationLabelRe`, and the comment (`// … as in citationLabelRe`) explicitly acknowledges the copy. Two independent literals for "the same set of leading markdown/list markers" will drift if one is ever extended. Low-churn fix: hoist a shared `const leadMarkers = `[\\s>#*_+-]*`` and reference it from both `summaryLead` and `citationLabelRe`.';
const EMPTY_CASE_TITLE =
  "Empty isWeakFinal case relies on pre-initialized mode; explicit `mode = modeBackRef` would be more self-contained";
const EMPTY_CASE_BODY = [
  "**`agent/finalize.go:54-55` — empty `case` body relying on the pre-initialized `mode`.**",
  "```go",
  "case isWeakFinal(terminal):",
  "\t// modeBackRef",
  "```",
  "This depends on `mode := modeBackRef` set two lines up; the comment documents it, but an explicit `mode = modeBackRef` in the case body is more self-contained and survives a future refactor that changes the initializer. Trivial, optional.",
].join("\n");

/** The six clusters of the reference page, ranked as it shows them. */
export function referenceClusters(): Cluster[] {
  const [opus, sonnet, glm, kimi] = MODELS.map((m) => m.model) as [string, string, string, string];
  const leading = (model: string) =>
    finding(
      model,
      "maintainability",
      "low",
      ["agent/finalize.go", 130, 131],
      LEADING_MARKER_TITLE,
      LEADING_MARKER_BODY,
    );
  const emptyCase = (model: string) =>
    finding(
      model,
      "maintainability",
      "nit",
      ["agent/finalize.go", 54, 55],
      EMPTY_CASE_TITLE,
      EMPTY_CASE_BODY,
    );
  return [
    cluster("fp-leading-marker", [leading(opus), leading(sonnet), leading(glm)]),
    cluster("fp-empty-case", [emptyCase(opus), emptyCase(sonnet)]),
    cluster("fp-closer-regex", [
      finding(
        kimi,
        "error-handling",
        "medium",
        ["agent/finalize.go", 139, 141],
        "summaryCloserRe regex can false-positive on prose where [.] is not end-of-sentence",
        "`agent/finalize.go:139-141` — The `summaryCloserRe` regex matches a prefix ending in `[.!]` but does not enforce that the sentence actually terminates there (whitespace or end-of-string). Tighten the regex to require `\\s|$` after `[.!]`, e.g. `[.!](?:\\s|$)`.",
      ),
    ]),
    cluster("fp-closer-discarded", [
      finding(
        opus,
        "error-handling",
        "low",
        ["agent/finalize.go", 75, 75],
        "Summary closer is discarded (not appended), so a closer carrying a net-new correction/addendum beyond the front-loaded answer is silently lost; the 3x dwarf ratio is a length guard, not a containment guard",
        'Unlike `modeCitations`, which *appends* the terminal (`rec + "\\n\\n" + tail`, line 72), `modeSummary` falls through to `return rec` (line 75) and drops the closer entirely.',
      ),
    ]),
    cluster("fp-duplicate-fixture", [
      finding(
        kimi,
        "maintainability",
        "low",
        ["agent/finalize_test.go", 126, 127],
        "Duplicate test fixture construction across multiple test functions",
        "`longAnswer` and `hugeAnswer` are built with identical `strings.Repeat(…)` expressions in `TestFinalOutput`, then re-defined verbatim in three `TestRun_…` functions. Extract these to package-level test fixtures.",
      ),
    ]),
    cluster("fp-review-reference", [
      finding(
        kimi,
        "maintainability",
        "low",
        ["agent/finalize_test.go", 357, 357],
        "External review reference embedded in permanent test comment",
        "Test-case comments embed external review references (`// Gadfly (opus, correctness):`). Replace them with plain prose describing the invariant being guarded.",
      ),
    ]),
  ];
}

/** A lens report as the page shows one: no stated verdict unless given, six turns, 12k tokens in. */
export function pageLensReport(
  model: string,
  provider: string,
  lens: string,
  overrides: Partial<LensReport> = {},
): LensReport {
  return lensReport({
    model,
    provider,
    lens,
    statedVerdict: null,
    turns: 6,
    usage: { inputTokens: 12_000, outputTokens: 900 },
    ...overrides,
  });
}

function modelSummaries(clusters: Cluster[]): ModelSummary[] {
  return MODELS.map(({ model, provider }) => {
    const verdicts = LENS_VERDICTS[model] ?? [];
    const lenses = LENSES.map((lens, index) =>
      pageLensReport(model, provider, lens, {
        verdict: verdicts[index] ?? NONE,
        statedVerdict: verdicts[index] ?? NONE,
        text: referenceText(model, lens),
        findings: clusters.flatMap((c) =>
          c.findings.filter((f) => f.model === model && f.lens === lens).map(withoutAttribution),
        ),
      }),
    );
    return { model, provider, verdict: MINOR, lenses };
  });
}

/** Round 1 of the reference page. */
export function referenceConsensus(): Consensus {
  const clusters = referenceClusters();
  return {
    models: modelSummaries(clusters),
    modelCount: 4,
    verdict: MINOR,
    clusters,
    comparison: null,
  };
}

const DROPPED: LensFinding = {
  file: "agent/finalize.go",
  line: 136,
  endLine: 136,
  severity: "low",
  confidence: "low",
  title: "Possible `!`–`:` range in the leading-marker class",
  body: "The hyphen is in terminal position, hence literal.",
};

/**
 * Round 2, after the fixes pushed in 21b4775: two findings fixed, two still open,
 * one new; kimi's performance lens timed out, sonnet's error-handling answer was
 * recovered by finalize, and glm's verify pass dropped two findings.
 */
export function roundTwoConsensus(): Consensus {
  const [leading, emptyCase, closerRegex, closerDiscarded, duplicateFixture, reviewReference] =
    referenceClusters() as [Cluster, Cluster, Cluster, Cluster, Cluster, Cluster];
  const fresh: Cluster = cluster("fp-boundary-comment", [
    finding(
      "kimi-k2.6:cloud",
      "correctness",
      "high",
      ["agent/finalize.go", 254, 262],
      "User-boundary break also stops at a mid-run steer message of role User",
      "A steer message injected with `llm.RoleUser` between the tool results and the terminal turn ends the `modeSummary` scan early, so the front-loaded answer is never recovered. Treat steer messages as transparent, or document the limitation where the scan stops.",
    ),
    finding(
      "glm-5.2:cloud",
      "correctness",
      "medium",
      ["agent/finalize.go", 255, 256],
      "modeSummary scan stops at steer messages",
      "Steer messages are user-role too, so the new boundary also fires on them.",
    ),
  ]);
  const clusters = [fresh, leading, emptyCase, closerRegex, duplicateFixture];
  const models = modelSummaries(clusters).map((summary) => ({
    ...summary,
    lenses: summary.lenses.map((report) => {
      if (report.model === "kimi-k2.6:cloud" && report.lens === "performance") {
        return {
          ...report,
          outcome: "failed" as const,
          verdict: null,
          statedVerdict: null,
          text: "",
          failure: "timed out after 900 s",
        };
      }
      if (report.model === "claude-code/sonnet" && report.lens === "error-handling") {
        return {
          ...report,
          recovered: true,
          text: "**VERDICT: No material issues found**\n\nThe new user-boundary break and the back-ref precedence both fail closed: an unmatched closer keeps today's behaviour, and a terminal matching both shapes takes the looser bar. No unhandled error path.",
        };
      }
      if (report.model === "glm-5.2:cloud" && report.lens === "correctness") {
        // The new high-severity finding; two weaker ones did not survive verification.
        return {
          ...report,
          verdict: "Significant issues" as const,
          dropped: [DROPPED, { ...DROPPED, line: 140, endLine: 140 }],
        };
      }
      return report;
    }),
    verdict:
      summary.model === "glm-5.2:cloud" || summary.model === "kimi-k2.6:cloud"
        ? ("Significant issues" as const)
        : summary.verdict,
  }));
  return {
    models,
    modelCount: 4,
    verdict: "Significant issues",
    clusters,
    comparison: {
      round: 2,
      previousHeadSha: PREVIOUS_HEAD_SHA,
      fresh: [fresh],
      stillOpen: [leading, emptyCase, closerRegex, duplicateFixture],
      fixed: [
        {
          ...previous(closerDiscarded),
          url: "https://github.com/steve/mort/pull/412#discussion_r2260101",
        },
        previous(reviewReference),
      ],
    },
  };
}

function previous(cluster: Cluster) {
  const { fingerprint, representative, severity } = cluster;
  return {
    fingerprint,
    title: representative.title,
    file: representative.file,
    line: representative.line,
    severity,
  };
}

/** The status board two minutes into round 2: some done, some running, one failed. */
export function runningStatus(): RoundStatus {
  const done = (lens: string, verdict: Verdict = NONE): LensStatus => ({
    lens,
    state: "done",
    verdict,
  });
  return {
    headSha: HEAD_SHA,
    round: 2,
    updatedAt: UPDATED_AT,
    notReviewed: [],
    finished: false,
    reviewers: [
      {
        ...MODELS[0],
        lenses: [
          done("security"),
          done("correctness"),
          { lens: "maintainability", state: "running", turn: 5 },
          { lens: "performance", state: "running", turn: 2 },
          { lens: "error-handling", state: "queued" },
        ],
      },
      { ...MODELS[1], lenses: LENSES.map((lens) => ({ lens, state: "queued" as const })) },
      {
        ...MODELS[2],
        lenses: [
          done("security"),
          done("correctness"),
          done("maintainability", MINOR),
          done("performance"),
          done("error-handling"),
        ],
      },
      {
        ...MODELS[3],
        lenses: [
          { lens: "security", state: "failed", reason: "timed out after 900 s" },
          {
            lens: "correctness",
            state: "failed",
            reason: "the model returned no gadfly-findings block, even after one repair turn",
          },
          { lens: "maintainability", state: "failed", reason: "timed out after 900 s" },
          { lens: "performance", state: "cancelled" },
          { lens: "error-handling", state: "failed", reason: "provider ollama-cloud: HTTP 503" },
        ],
      },
    ],
  };
}

/** The same round cancelled by a newer push: lenses still in flight were cancelled. */
export function supersededStatus(): RoundStatus {
  const status = runningStatus();
  return {
    ...status,
    finished: true,
    supersededBy: "0d1e2f3a4b5c6d7e8f9001122334455667788990",
    reviewers: status.reviewers.map((reviewer) => ({
      ...reviewer,
      lenses: reviewer.lenses.map((lens) =>
        lens.state === "queued" || lens.state === "running"
          ? { lens: lens.lens, state: "cancelled" as const, reason: "superseded by 0d1e2f3" }
          : lens,
      ),
    })),
  };
}

/** The same round once every reviewer has finished, resumed after a restart, with files left out. */
export function finishedStatus(): RoundStatus {
  const status = runningStatus();
  return {
    ...status,
    updatedAt: new Date("2026-08-06T00:31:02.004Z"),
    finished: true,
    resumed: true,
    reviewers: status.reviewers.map((reviewer) => ({
      ...reviewer,
      lenses: reviewer.lenses.map((lens) =>
        lens.state === "queued" || lens.state === "running"
          ? {
              lens: lens.lens,
              state: "done" as const,
              verdict: lens.lens === "maintainability" ? MINOR : NONE,
            }
          : lens,
      ),
    })),
    notReviewed: [
      { path: "docs/diagram.png", reason: "binary" },
      { path: "testdata/transcripts/b3cb9ee9.json", reason: "too-large" },
      { path: "vendor/modules.txt", reason: "ignored" },
    ],
  };
}
