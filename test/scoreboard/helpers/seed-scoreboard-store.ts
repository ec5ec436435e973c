import type { LensReport } from "../../../src/agent/index.js";
import type { PreviousFinding } from "../../../src/consensus/index.js";
import type { ChallengeRecord } from "../../../src/run/cross-examine.js";
import type { RepoRef, RunStore } from "../../../src/run/store/run-store.js";
import type { FakeClock } from "../../helpers/fake-clock.js";
import { claimRound, endRound } from "../../run/store/helpers/claim-round.js";

/**
 * A store seeded with a known history, whose scoreboard is worked out by hand in
 * `scoreboard-expected.ts`: three models (alpha and beta priced, gamma not), two lenses, two
 * repositories, one pull request reviewed twice (two findings fixed in round 2), a lens that
 * failed, one that failed over, cross-examination confirming one finding and refuting another,
 * a re-check, reactions and dismissals, a running round, and a round older than the window.
 */
export const WIDGETS: RepoRef = { owner: "octo-org", repo: "widgets" };
export const GIZMO: RepoRef = { owner: "acme", repo: "gizmo" };

/** Prices of `gadfly.config.yml`'s models (USD per million tokens); gamma has none. */
export const SEEDED_PRICES = {
  alpha: { input: 1, cachedInput: 0.5, output: 2 },
  beta: { input: 0.5, output: 4 },
};

export const DAY = 86_400_000;

export interface SeededStore {
  /** When the seeding ended: the scoreboard's `now` is an hour later. */
  seededAt: number;
  now: Date;
}

/** The clock must start at least 40 days before the window's end; it is advanced here. */
export async function seedScoreboardStore(
  store: RunStore,
  clock: FakeClock,
  names: { widgets?: RepoRef; title?: string } = {},
): Promise<SeededStore> {
  const widgets = names.widgets ?? WIDGETS;
  // Outside a 30-day window: none of it may count.
  const old = await round(store, widgets, 1, "old111");
  await store.saveLensReport(
    old,
    lens("alpha", "security", "done", 5, [9_000_000, 0, 9_000_000], 1),
  );
  await store.saveFingerprints(old, [finding("fp-old", ["alpha"], "security")]);
  await endRound(store, old, { state: "completed" });

  clock.advance(40 * DAY);
  const first = await round(store, widgets, 7, "aaa111");
  await store.saveLensReport(
    first,
    lens("alpha", "security", "done", 2, [1_000_000, 200_000, 100_000], 10_000),
  );
  await store.saveLensReport(
    first,
    lens("alpha", "correctness", "done", 1, [500_000, 0, 50_000], 30_000),
  );
  await store.saveLensReport(
    first,
    lens("beta", "security", "done", 1, [1_000_000, 0, 200_000], 20_000),
  );
  await store.saveLensReport(
    first,
    lens("beta", "correctness", "failed", 0, [100_000, 0, 0], 5_000),
  );
  await store.saveLensReport(
    first,
    lens("gamma", "security", "done", 1, [10_000, 0, 1_000], 40_000),
  );
  await store.saveLensReport(first, {
    ...lens("gamma", "correctness", "done", 0, [300_000, 0, 30_000], 8_000),
    answeredBy: "alpha",
  });
  await store.saveFingerprints(first, [
    finding("fp-sql", ["alpha", "beta"], "security", names.title),
    finding("fp-null", ["alpha"], "correctness"),
    finding("fp-race", ["gamma"], "security"),
    finding("fp-log", ["alpha"], "security"),
  ]);
  await store.saveChallenge(first, challenge("fp-null", "beta", "confirm", [10_000, 1_000]));
  await store.saveChallenge(first, challenge("fp-null", "gamma", "unsure", [5_000, 500]));
  await store.saveChallenge(first, challenge("fp-race", "alpha", "refute", [20_000, 2_000]));
  await store.saveChallenge(first, challenge("fp-race", "beta", "refute", [10_000, 1_000]));
  await endRound(store, first, { state: "completed" });

  clock.advance(DAY);
  const second = await round(store, widgets, 7, "bbb222");
  await store.saveLensReport(
    second,
    lens("alpha", "security", "done", 1, [400_000, 0, 40_000], 12_000),
  );
  await store.saveLensReport(
    second,
    lens("beta", "security", "done", 1, [600_000, 0, 60_000], 14_000),
  );
  await store.saveChallenge(second, challenge("recheck:fp-log", "alpha", "refute", [1_000, 100]));
  await store.saveFingerprints(second, [
    finding("fp-sql", ["alpha", "beta"], "security", names.title),
    finding("fp-race", ["gamma"], "security"),
  ]);
  await endRound(store, second, { state: "completed" });

  clock.advance(DAY);
  const gizmo = await round(store, GIZMO, 3, "ccc333");
  await store.saveLensReport(
    gizmo,
    lens("alpha", "security", "done", 1, [100_000, 0, 10_000], 16_000),
  );
  await store.saveFingerprints(gizmo, [finding("fp-xss", ["alpha"], "security")]);
  await endRound(store, gizmo, { state: "completed" });

  clock.advance(3_600_000);
  const running = await round(store, GIZMO, 4, "ddd444");
  await store.markLensRunning(running, "alpha", "security");

  const feedback = (
    repo: RepoRef,
    pullNumber: number,
    fingerprint: string,
    kind: string,
    actor: string,
  ) =>
    store.saveFeedback({
      repo,
      pullNumber,
      fingerprint,
      kind: kind as "dismiss",
      actor,
      reason: null,
      roundId: null,
    });
  clock.advance(60_000);
  await feedback(widgets, 7, "fp-sql", "thumbs_up", "maintainer");
  await feedback(widgets, 7, "fp-sql", "thumbs_up", "maintainer");
  await feedback(widgets, 7, "fp-sql", "thumbs_up", "reviewer2");
  await feedback(widgets, 7, "fp-race", "thumbs_down", "maintainer");
  await feedback(widgets, 7, "fp-race", "dismiss", "maintainer");
  await feedback(widgets, 7, "fp-log", "dismiss", "maintainer");
  clock.advance(60_000);
  await feedback(widgets, 7, "fp-log", "undismiss", "maintainer");
  await feedback(GIZMO, 3, "fp-xss", "false_positive", "acme-dev");
  // Feedback on a finding no round of the window published counts nowhere.
  await feedback(widgets, 1, "fp-old", "thumbs_down", "maintainer");
  const seededAt = clock.now();
  return { seededAt, now: new Date(seededAt + 3_600_000) };
}

async function round(store: RunStore, repo: RepoRef, pullNumber: number, headSha: string) {
  const { round } = await store.startRound({
    repo,
    installationId: 42,
    pullNumber,
    headSha,
    trigger: { kind: "push", deliveryId: `delivery-${headSha}` },
  });
  await claimRound(store, round.id);
  return round.id;
}

function lens(
  model: string,
  lensId: string,
  outcome: LensReport["outcome"],
  findings: number,
  [inputTokens, cachedInputTokens, outputTokens]: [number, number, number],
  durationMs: number,
): LensReport {
  return {
    model,
    provider: "fake",
    lens: lensId,
    outcome,
    verdict:
      outcome === "done" ? (findings > 0 ? "Minor issues" : "No material issues found") : null,
    statedVerdict: null,
    text: "",
    findings: Array.from({ length: findings }, (_, index) => ({
      file: "src/a.ts",
      line: index + 1,
      endLine: index + 1,
      severity: "low" as const,
      confidence: "medium" as const,
      title: `finding ${index + 1}`,
      body: "detail",
    })),
    dropped: [],
    failure: outcome === "failed" ? "timed out" : null,
    turns: 3,
    usage: { inputTokens, cachedInputTokens, outputTokens },
    durationMs,
    recovered: false,
  };
}

function finding(
  fingerprint: string,
  models: string[],
  lensId: string,
  title = `title of ${fingerprint}`,
): PreviousFinding {
  return {
    fingerprint,
    title,
    file: "src/a.ts",
    line: 10,
    severity: "medium",
    detail: { endLine: 10, models, lens: lensId, confidence: "high", body: "why" },
  };
}

function challenge(
  fingerprint: string,
  model: string,
  verdict: "confirm" | "refute" | "unsure",
  [inputTokens, outputTokens]: [number, number],
): ChallengeRecord {
  return {
    outcome: "answered",
    fingerprint,
    model,
    verdict,
    reason: "checked",
    checked: "src/a.ts:10",
    usage: { inputTokens, outputTokens },
    durationMs: 1_000,
  };
}
