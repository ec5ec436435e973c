import { readFile, stat } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import type { z } from "zod";
import { DatasetError } from "./dataset-error.js";
import type { EvalEntry, GoldComment } from "./eval-entry.js";
import { AacrDataset, NativeDataset } from "./schema.js";

export interface LoadDatasetOptions {
  /** The dataset file. */
  path: string;
  /** `--repos DIR`: where the clones are; the dataset's directory when not given. */
  reposDir: string | null;
}

/** The clone of `owner/name`: `<repos>/<owner>/<name>`, else `<repos>/<name>` (as AACR-Bench clones). */
const AACR_URL = /^https:\/\/github\.com\/([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)\/pull\/(\d+)\/?$/;

/**
 * Reads a dataset, native (`{"format": "gadfly-eval", …}`) or AACR-Bench (a JSON array), into
 * entries. A bad file is an DatasetError naming the entry and field; nothing is guessed.
 */
export async function loadDataset(options: LoadDatasetOptions): Promise<EvalEntry[]> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(options.path, "utf8"));
  } catch (error) {
    throw new DatasetError(`dataset ${options.path}: ${(error as Error).message}`);
  }
  const reposDir = options.reposDir ?? resolve(options.path, "..");
  const entries = Array.isArray(raw)
    ? await aacrEntries(parse(AacrDataset, raw, options.path), reposDir)
    : nativeEntries(parse(NativeDataset, raw, options.path), reposDir);
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.id)) throw new DatasetError(`dataset: entry id "${entry.id}" is repeated`);
    seen.add(entry.id);
    for (const revision of [entry.base, entry.head]) {
      // Passed to git: a leading dash would read as an option.
      if (revision.startsWith("-") || /[\s\0]/.test(revision)) {
        throw new DatasetError(
          `dataset: entry "${entry.id}": ${JSON.stringify(revision)} is not a git revision`,
        );
      }
    }
  }
  return entries;
}

function parse<Schema extends z.ZodType>(
  schema: Schema,
  raw: unknown,
  path: string,
): z.infer<Schema> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.join(".") ?? "";
  throw new DatasetError(
    `dataset ${path}: ${where === "" ? "" : `${where}: `}${issue?.message ?? "invalid"}`,
  );
}

function nativeEntries(dataset: z.infer<typeof NativeDataset>, reposDir: string): EvalEntry[] {
  return dataset.entries.map((entry) => ({
    id: entry.id,
    url: entry.url ?? null,
    repoDir: isAbsolute(entry.repo) ? entry.repo : join(reposDir, entry.repo),
    base: entry.base,
    head: entry.head,
    gold: entry.gold.map((gold) =>
      goldComment(
        gold.path,
        gold.side,
        gold.fromLine,
        gold.toLine ?? gold.fromLine,
        gold.category,
        gold.body,
      ),
    ),
  }));
}

async function aacrEntries(
  dataset: z.infer<typeof AacrDataset>,
  reposDir: string,
): Promise<EvalEntry[]> {
  const entries: EvalEntry[] = [];
  for (const [index, entry] of dataset.entries()) {
    const match = AACR_URL.exec(entry.githubPrUrl);
    if (match === null) {
      throw new DatasetError(
        `dataset: entry ${index}: githubPrUrl is not a GitHub pull request URL`,
      );
    }
    const [, owner = "", name = "", number = ""] = match;
    entries.push({
      id: `${owner}__${name}-${number}`,
      url: entry.githubPrUrl,
      repoDir: await cloneDir(reposDir, owner, name),
      base: entry.source_commit,
      head: entry.target_commit,
      gold: entry.comments.map((comment) =>
        goldComment(
          comment.path,
          comment.side?.trim().toLowerCase() === "left" ? "left" : "right",
          comment.from_line,
          comment.to_line,
          comment.category,
          comment.note,
        ),
      ),
    });
  }
  return entries;
}

async function cloneDir(reposDir: string, owner: string, name: string): Promise<string> {
  const nested = join(reposDir, owner, name);
  try {
    if ((await stat(nested)).isDirectory()) return nested;
  } catch {
    // Not there: the flat layout.
  }
  return join(reposDir, name);
}

/** AACR-Bench has ranges written backwards (1153 to 1144): the range is the same lines. */
function goldComment(
  path: string,
  side: "left" | "right",
  from: number,
  to: number,
  category: string | undefined,
  body: string | undefined,
): GoldComment {
  return {
    path: path.replace(/^\.?\//, ""),
    side,
    fromLine: Math.min(from, to),
    toLine: Math.max(from, to),
    category: category ?? null,
    ...(body === undefined ? {} : { body }),
  };
}
