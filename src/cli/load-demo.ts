import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { findPackageRoot } from "../config/index.js";
import type { DiffFile } from "../diff/index.js";
import { parseUnifiedDiff } from "../diff/index.js";
import type { NotReviewed } from "../run/index.js";
import { UsageError } from "./usage-error.js";

const DemoChange = z.strictObject({
  title: z.string(),
  description: z.string(),
  headSha: z.string(),
  baseSha: z.string(),
});

export interface Demo {
  title: string;
  description: string;
  headSha: string;
  baseSha: string;
  files: DiffFile[];
  workspaceDir: string;
  notReviewed: NotReviewed[];
  configPath: string;
  recordingsDir: string;
  cleanup(): Promise<void>;
}

/**
 * The bundled offline demo (`examples/demo/`): a small change, its head tree,
 * a config of four models and their recorded transcripts, answered by the
 * replay provider with no model and no key.
 */
export async function loadDemo(): Promise<Demo> {
  let root: string;
  try {
    root = join(findPackageRoot(import.meta.url, "examples/demo"), "examples", "demo");
  } catch {
    throw new UsageError(
      "--demo: the bundled demo (examples/demo) is not installed with this copy of Gadfly",
    );
  }
  const change = DemoChange.parse(JSON.parse(await readFile(join(root, "change.json"), "utf8")));
  const diff = await readFile(join(root, "change.diff"), "utf8");
  return {
    ...change,
    files: parseUnifiedDiff(diff),
    workspaceDir: join(root, "head"),
    notReviewed: [],
    configPath: join(root, "gadfly.config.yml"),
    recordingsDir: join(root, "recordings"),
    cleanup: async () => undefined,
  };
}
