import { Probot } from "probot";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OWN_FINDING_LABEL } from "../../src/agent/challenge-finding.js";
import { type LensDefinition, loadLenses } from "../../src/agent/load-lenses.js";
import { lensesFor, planReview } from "../../src/config/plan-review.js";
import { DEFAULT_REPO_CONFIG } from "../../src/config/repo-config-schema.js";
import { AppConfig } from "../../src/config/schema.js";
import { buildConsensus } from "../../src/consensus/build-consensus.js";
import { renderLensAnswer } from "../../src/findings/findings-block.js";
import type { LensFinding } from "../../src/findings/schema.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { runPullRequestRound } from "../../src/github/round/run-pull-request-round.js";
import type { ChatModel, ChatRequest } from "../../src/llm/language-model.js";
import { CROSS_EXAMINATION_LENS } from "../../src/run/cross-examination-phase.js";
import { createReviewerLimiter } from "../../src/run/reviewer-limiter.js";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import { lensReport } from "../builders/lens-report.js";
import { corpus } from "../consensus/corpus/index.js";
import { type FakeGitHub, startFakeGitHub } from "../fakes/fake-github/index.js";
import { probotCredentials } from "../fakes/fake-github/probot-credentials.js";
import { claimedRound } from "../helpers/claimed-round.js";
import { roundDependencies } from "../helpers/round-dependencies.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../helpers/temporary-store-directory.js";

/*
 * Cross-examination against the fake GitHub: three scripted models; each lone finding at or
 * above medium is put to the other two, whose answers decide what speaks inline.
 */

const FILE = "src/server.js";
const MODELS = ["m1", "m2", "m3"];
const base = Array.from({ length: 20 }, (_, index) => `export const v${index + 1} = ${index};`);
const head = base.map((line, index) => ([4, 14].includes(index + 1) ? `${line} // +` : line));

const at = (line: number, severity: LensFinding["severity"], title: string): LensFinding => ({
  file: FILE,
  line,
  endLine: line,
  severity,
  confidence: "high",
  title,
  body: `${title}.`,
});
const CONFIRMED = at(4, "medium", "The retry count is read from the request without a bound");
const REFUTED = at(14, "high", "The admin token is compared with == and leaks timing");
const SCRIPT: Record<string, LensFinding[]> = { m1: [CONFIRMED], m2: [REFUTED], m3: [] };

/** m2 confirms the retry finding; m1 and m3 refute the token one; m3 is unsure of the retry one. */
function verdictOf(modelId: string, claim: string): "confirm" | "refute" | "unsure" {
  if (claim.includes(CONFIRMED.title)) return modelId === "m2" ? "confirm" : "unsure";
  return "refute";
}

/*
 * The gold-labelled pull request's shape: true findings reported by two models, and two lone
 * false highs a line from an unrelated finding sharing its words, one next to another model's
 * finding, one next to the same model's own. Challengers answer by the truth.
 */
const said = (finding: LensFinding, body: string): LensFinding => ({ ...finding, body });
const TRUE_RETRY = said(
  at(4, "medium", "The retry count from the request has no upper bound"),
  "`retries` comes from the query string and the loop runs that many times; cap it.",
);
const TRUE_RETRY_TOO = said(
  at(4, "medium", "Unbounded retry count taken from the request"),
  "A client can send retries=1000000 and keep a worker busy; clamp the retry count.",
);
const FALSE_NEAR = said(
  at(5, "high", "The retry count from the request is parsed as a float"),
  "`Number(req.query.retries)` accepts 2.5, so the retry loop runs a fractional count.",
);
const TRUE_TOKEN = said(
  at(14, "high", "The admin token is compared with == and leaks timing"),
  "String equality stops at the first differing byte; use crypto.timingSafeEqual.",
);
const TRUE_TOKEN_TOO = said(
  at(14, "high", "Timing leak: the admin token is compared with =="),
  "The comparison is not constant time, so the token can be guessed byte by byte.",
);
const FALSE_OWN = said(
  at(15, "high", "The admin token header is not trimmed"),
  "A token pasted with a trailing newline never matches; trim the header value first.",
);
const GOLD: Record<string, LensFinding[]> = {
  m1: [TRUE_RETRY, TRUE_TOKEN_TOO],
  m2: [FALSE_NEAR, TRUE_RETRY_TOO],
  m3: [TRUE_TOKEN, FALSE_OWN],
};
const FALSE_TITLES = [FALSE_NEAR.title, FALSE_OWN.title];
const TRUE_TITLES = [TRUE_RETRY, TRUE_RETRY_TOO, TRUE_TOKEN, TRUE_TOKEN_TOO].map((f) => f.title);
function truthOf(_modelId: string, claim: string): "confirm" | "refute" | "unsure" {
  if (FALSE_TITLES.some((title) => claim.includes(title))) return "refute";
  if (TRUE_TITLES.some((title) => claim.includes(title))) return "confirm";
  return "unsure";
}

let script = SCRIPT;
/** How a challenger answers: the claim's title, and its own claim's when it is asked "the same defect?". */
let judge: (modelId: string, claim: string, own: string | undefined) => Verdict = verdictOf;
type Verdict = "confirm" | "refute" | "unsure";

const config = AppConfig.parse({
  providers: [{ name: "local", type: "ollama" }],
  models: MODELS.map((id) => ({ id, provider: "local" })),
  review: { lenses: ["security"], verify: false },
  crossExamination: { enabled: true },
  // Its scripted models answer reviews and challenges only: no summary call among them.
  summary: false,
});

let asked: string[];
function scriptedModel(modelId: string, lens: string): ChatModel {
  const answer = (text: string) => ({
    text,
    toolCalls: [],
    finishReason: "stop" as const,
    usage: { inputTokens: 1, outputTokens: 1 },
  });
  return {
    kind: "chat",
    provider: "local",
    modelId,
    chat: async (request: ChatRequest) => {
      if (!lens.startsWith(`${CROSS_EXAMINATION_LENS}-`)) {
        return answer(renderLensAnswer("Minor issues", script[modelId] ?? [], "Reviewed."));
      }
      // The claim comes first; a same-defect question adds the challenger's own claim after it.
      const [claim = "", ownPart] = (request.messages.at(-1)?.content ?? "").split(
        OWN_FINDING_LABEL,
      );
      const titles = Object.values(script)
        .flat()
        .map((finding) => finding.title);
      const titleIn = (text: string) =>
        titles.find((each) => text.includes(`Title: ${each}`)) ??
        titles.find((each) => text.includes(each));
      const title = titleIn(claim);
      const own = ownPart === undefined ? undefined : (titleIn(ownPart) ?? "?");
      asked.push(
        script === SCRIPT
          ? `${modelId}: ${claim.includes(CONFIRMED.title) ? "retry" : "token"}`
          : `${modelId}: ${title ?? "?"}`,
      );
      const verdict = judge(modelId, title ?? claim, own);
      return answer(
        `Checked.\n\n\`\`\`gadfly-challenge\n${JSON.stringify({ verdict, reason: `${modelId} read the code`, checked: `${FILE}:4` })}\n\`\`\``,
      );
    },
  };
}

let github: FakeGitHub;
let probot: Probot;
let lenses: LensDefinition[];
let temporary: TemporaryStoreDirectory;
let store: SqliteRunStore;
let installationId = 0;

beforeAll(async () => {
  github = await startFakeGitHub({ appId: 1, appSlug: "gadfly" });
  const { privateKey, Octokit } = probotCredentials(github.apiUrl);
  probot = new Probot({ appId: 1, privateKey, Octokit, logLevel: "fatal" });
  lenses = await loadLenses();
  ({ installationId } = github.addRepo({ owner: "octo-org", name: "api" }));
});
afterAll(() => github.close());
beforeEach(async () => {
  asked = [];
  script = SCRIPT;
  judge = verdictOf;
  temporary = await temporaryStoreDirectory();
  store = temporary.track(await SqliteRunStore.open(temporary.path));
});
afterEach(() => temporary.remove());

async function review(prepare?: (roundId: string) => Promise<void>) {
  const pr = github.addPullRequest({
    owner: "octo-org",
    repo: "api",
    title: "Tune the server",
    files: [{ path: FILE, base: `${base.join("\n")}\n`, head: `${head.join("\n")}\n` }],
  });
  const octokit = (await probot.auth(installationId)) as GitHubClient;
  const { round } = await store.startRound({
    repo: { owner: "octo-org", repo: "api" },
    installationId,
    pullNumber: pr.number,
    headSha: pr.headSha,
    trigger: { kind: "push", deliveryId: `d-${pr.number}` },
  });
  await prepare?.(round.id);
  const { plan } = planReview(config, { config: DEFAULT_REPO_CONFIG, issues: null }, lenses);
  await runPullRequestRound(
    octokit,
    {
      ...(await claimedRound(store, round.id)),
      plan,
      lenses: lensesFor(plan, lenses),
      fromFork: false,
    },
    roundDependencies(
      { store, dataDir: temporary.directory },
      {
        config,
        limiter: createReviewerLimiter(3),
        lenses,
        createModel: (model, _provider, lens) => scriptedModel(model.id, lens),
      },
    ),
  );
  expect((await store.findRound(round.id))?.state).toBe("completed");
  expect(github.validationErrors).toEqual([]);
  const inline = github.reviews(pr).flatMap((entry) => entry.comments);
  const consensus = github
    .comments(pr)
    .map((comment) => comment.body)
    .find((body) => body.includes("<!-- gadfly-consensus"));
  const published = (await store.previousRound({ owner: "octo-org", repo: "api" }, pr.number, 99))
    ?.findings;
  return { roundId: round.id, inline, consensus, published: published ?? [] };
}

describe("cross-examination", () => {
  it("puts each lone finding to the other models: a confirmation speaks inline, a refuted high does not", async () => {
    const { roundId, inline } = await review();
    expect(asked.sort()).toEqual(["m1: token", "m2: retry", "m3: retry", "m3: token"]);
    expect(inline.map((comment) => comment.line)).toEqual([4]);
    const records = await store.challenges(roundId);
    expect(
      records
        .map(
          (record) =>
            `${record.model} ${record.outcome === "answered" ? record.verdict : record.outcome}`,
        )
        .sort(),
    ).toEqual(["m1 refute", "m2 confirm", "m3 refute", "m3 unsure"]);
  });

  it("does not ask again what a restarted round already asked", async () => {
    const fingerprints = buildConsensus({
      reports: MODELS.map((model) =>
        lensReport({ model, lens: "security", findings: SCRIPT[model] ?? [] }),
      ),
      modelOrder: MODELS,
      lensOrder: ["security"],
      providers: { m1: "local", m2: "local", m3: "local" },
    }).clusters.map((cluster) => [cluster.representative.title, cluster.fingerprint] as const);
    const fingerprintOf = new Map(fingerprints);
    const { inline } = await review(async (roundId) => {
      await store.saveChallenge(roundId, {
        outcome: "answered",
        fingerprint: fingerprintOf.get(CONFIRMED.title) ?? "",
        model: "m2",
        verdict: "confirm",
        reason: "saved before the restart",
        checked: `${FILE}:4`,
      });
    });
    expect(asked.sort()).toEqual(["m1: token", "m3: retry", "m3: token"]);
    expect(inline.map((comment) => comment.line)).toEqual([4]);
  });
});

describe("agreement that is unsure is verified", () => {
  it("cross-examines a lone false high beside another model's or its own model's finding, refutes it and keeps it out of inline", async () => {
    script = GOLD;
    judge = truthOf;
    const { roundId, inline, consensus } = await review();
    // Each false high was put to both other models, whatever clustering made of its neighbour.
    for (const title of FALSE_TITLES) {
      expect(asked.filter((entry) => entry.endsWith(`: ${title}`))).toHaveLength(2);
    }
    const records = await store.challenges(roundId);
    expect(records.every((record) => record.outcome === "answered")).toBe(true);
    // Inline: the two true problems, once each; neither false high.
    const lines = inline.map((comment) => comment.line).sort((a, b) => (a ?? 0) - (b ?? 0));
    expect(lines).toEqual([4, 14]);
    for (const comment of inline) {
      for (const title of FALSE_TITLES) expect(comment.body).not.toContain(title);
    }
    // The consensus shows both as disputed, and the verdict line counts them.
    expect(consensus).toContain("2 disputed");
    for (const title of FALSE_TITLES) expect(consensus).toContain(title);
  });
});

/*
 * The corpus' adjacent-lone-neighbours scenario on src/server.js: two models' "total can go
 * negative with stacked coupons" and a third model's false "rate can be negative" two lines
 * away are merged on weak evidence (an unsure cluster); each claim is put to the others.
 */
const NEIGHBOURS = corpus.find((entry) => entry.name === "adjacent-lone-neighbours");
const AS_MODEL: Record<string, string> = {
  "claude-code/opus": "m1",
  "kimi-k2.6:cloud": "m2",
  "glm-5.2:cloud": "m3",
};
const FALSE_LABELS = ["lone-high", "lone-same-model"];
const neighbourScript = (): Record<string, LensFinding[]> => {
  const script: Record<string, LensFinding[]> = { m1: [], m2: [], m3: [] };
  for (const { cluster: _c, model, lens: _l, ...finding } of NEIGHBOURS?.findings ?? []) {
    script[AS_MODEL[model] ?? "m1"]?.push({
      ...finding,
      file: FILE,
      line: finding.line - 28,
      endLine: finding.endLine - 28,
    });
  }
  return script;
};
const neighbourTitle = (label: string) =>
  NEIGHBOURS?.findings.find((finding) => finding.cluster === label)?.title ?? "?";

describe("an unsure merge is settled claim by claim", () => {
  it("splits off the false high its words tied to a true problem, and keeps the true one agreed, once", async () => {
    script = neighbourScript();
    const falseTitles = FALSE_LABELS.map(neighbourTitle);
    judge = (_model, title) => (falseTitles.includes(title) ? "refute" : "confirm");
    const { inline, consensus } = await review();
    const falseHigh = neighbourTitle("lone-high");
    expect(asked.filter((entry) => entry.endsWith(`: ${falseHigh}`)).sort()).toEqual([
      `m1: ${falseHigh}`,
      `m2: ${falseHigh}`,
    ]);
    // Both reporters of the clamp problem were asked about each other's claim.
    const capTitles = (NEIGHBOURS?.findings ?? [])
      .filter((finding) => finding.cluster === "cap")
      .map((finding) => finding.title);
    for (const title of capTitles) {
      expect(asked.filter((entry) => entry.endsWith(`: ${title}`))).toHaveLength(2);
    }
    // Inline: the rounding and the clamp problems, once each (a comment sits on a range's last
    // line: the clamp's is 6-7); the false high nowhere inline.
    expect(inline.map((comment) => comment.line).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([
      3, 7,
    ]);
    const clamp = inline.find((comment) => comment.line === 7);
    expect(capTitles.some((title) => clamp?.body.includes(title))).toBe(true);
    for (const comment of inline) expect(comment.body).not.toContain(falseHigh);
    expect(consensus).toContain("1 disputed");
    expect(consensus).toContain(falseHigh);
  });
});

describe("an unsure merge of two real but different problems", () => {
  it("asks each member whether the other's claim is its own defect, and publishes two rows", async () => {
    script = neighbourScript();
    // Every finding is real. A member asked "the same defect as yours?" says so only when the
    // two carry one label; asked only whether a problem exists, it confirms (it is real).
    const labelOf = (title: string) =>
      NEIGHBOURS?.findings.find((finding) => finding.title === title)?.cluster;
    const questions: string[] = [];
    judge = (model, title, own) => {
      questions.push(`${model}: ${own === undefined ? "exists" : "same"}`);
      if (own === undefined) return "confirm";
      return labelOf(title) === labelOf(own) ? "confirm" : "unsure";
    };
    const { published, consensus } = await review();
    const falseHigh = neighbourTitle("lone-high");
    const capTitles = (NEIGHBOURS?.findings ?? [])
      .filter((finding) => finding.cluster === "cap")
      .map((finding) => finding.title);
    // The weak merge put the rate claim (m3) with the clamp claims (m1, m2); each was asked of
    // the others as "the same defect as yours?", since each of them had a claim in it.
    expect(asked.filter((entry) => entry.endsWith(`: ${falseHigh}`)).sort()).toEqual([
      `m1: ${falseHigh}`,
      `m2: ${falseHigh}`,
    ]);
    expect(questions).toContain("m1: same");
    // Two rows: the clamp problem agreed by its two reporters, the rate problem on its own
    // (confirmed by nobody as the same defect: not joined, not disputed).
    const rate = published.filter((finding) => finding.title === falseHigh);
    expect(rate).toHaveLength(1);
    expect(rate[0]?.detail?.models).toEqual(["m3"]);
    expect(rate[0]?.detail?.confirmedBy ?? []).toEqual([]);
    const clamp = published.filter((finding) => capTitles.includes(finding.title));
    expect(clamp).toHaveLength(1);
    expect(clamp[0]?.detail?.models.slice().sort()).toEqual(["m1", "m2"]);
    expect(clamp[0]?.detail?.unsure).toBeUndefined();
    expect(consensus).not.toContain("disputed");
  });
});
