import type { ReviewPromptInput } from "../../../src/agent/build-review-prompt.js";
import type { LensEvent } from "../../../src/agent/lens-event.js";
import type { LensDefinition } from "../../../src/agent/load-lenses.js";
import { loadLenses } from "../../../src/agent/load-lenses.js";
import type { ReviewLensOptions } from "../../../src/agent/review-lens.js";
import { Workspace } from "../../../src/agent/workspace.js";
import type { LensFinding } from "../../../src/findings/schema.js";
import type { LanguageModel } from "../../../src/llm/language-model.js";
import { FIXTURE_REPO } from "./temporary-workspace.js";

export const sqlInjection: LensFinding = {
  file: "src/db.js",
  line: 7,
  endLine: 7,
  severity: "high",
  confidence: "high",
  title: "SQL query built by concatenating the request's name",
  body: "`findUserByName` puts `name` from the query string into the SQL text. Use a parameter (`$1`).",
};

export const offByOne: LensFinding = {
  file: "src/db.js",
  line: 13,
  endLine: 13,
  severity: "medium",
  confidence: "high",
  title: "Pagination offset skips the first user of every page",
  body: "`offset = page * pageSize + 1` skips one row: page 0 starts at the second user. Drop the `+ 1`.",
};

export const promptInput: ReviewPromptInput = {
  title: "Add user lookup and pagination",
  description: "Adds `/user?name=` and paginates `/users`.",
  diff: [
    "diff --git a/src/db.js b/src/db.js",
    "--- a/src/db.js",
    "+++ b/src/db.js",
    "@@ -4,0 +5,11 @@",
    "+export async function findUserByName(name) {",
    '+  const sql = "SELECT id, name, email FROM users WHERE name = \'" + name + "\'";',
    "+export async function listUsers(page, pageSize) {",
    "+  const offset = page * pageSize + 1;",
  ].join("\n"),
  changedFiles: ["src/db.js", "src/server.js"],
};

let lenses: LensDefinition[] | undefined;

export async function lens(id: string): Promise<LensDefinition> {
  lenses ??= await loadLenses();
  const found = lenses.find((candidate) => candidate.id === id);
  if (found === undefined) throw new Error(`no lens ${id}`);
  return found;
}

/** Options for reviewLens over the fixture repository, events collected in `events`. */
export async function reviewOptions(
  model: LanguageModel,
  overrides: Partial<ReviewLensOptions> = {},
): Promise<ReviewLensOptions & { events: LensEvent[] }> {
  const events: LensEvent[] = [];
  return {
    model,
    modelId: model.modelId,
    provider: model.provider,
    lens: await lens("correctness"),
    prompt: promptInput,
    workspace: await Workspace.open(FIXTURE_REPO),
    limits: { maxTurns: 8, timeoutSeconds: 900, verify: false },
    onEvent: (event) => events.push(event),
    events,
    ...overrides,
  };
}

/** The events without source and time, for compact assertions. */
export function eventTrail(events: readonly LensEvent[]): string[] {
  return events.map((event) => {
    switch (event.type) {
      case "running":
        return `running ${event.turn}`;
      case "tool":
        return `tool ${event.name} ${event.summary}`;
      case "verifying":
        return `verifying ${event.findings}`;
      case "done":
        return `done ${event.verdict} ${event.findings}/${event.dropped}`;
      case "failed":
      case "cancelled":
        return `${event.type} ${event.reason}`;
      default:
        return event.type;
    }
  });
}
