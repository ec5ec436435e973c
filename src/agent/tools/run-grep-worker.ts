import { Worker } from "node:worker_threads";
import { BINARY_SNIFF_BYTES } from "./cap-output.js";
import { ToolError } from "./repo-tool.js";

export interface GrepJob {
  source: string;
  flags: string;
  files: { relativePath: string; realPath: string }[];
  maxMatches: number;
  maxFileBytes: number;
  maxScannedBytes: number;
  maxLineChars: number;
}

export interface GrepMatch {
  file: string;
  line: number;
  /** The line, cut at maxLineChars. */
  text: string;
  /** The line's full length, to say it was cut. */
  length: number;
}

export interface GrepOutcome {
  matches: GrepMatch[];
  /** More matches exist beyond maxMatches. */
  more: boolean;
  filesScanned: number;
  skippedLarge: number;
  skippedBinary: number;
  /** The scanned-bytes budget stopped the search early. */
  budgetExhausted: boolean;
}

/*
 * The search runs in a worker thread (plain JavaScript, evaluated, so it works
 * from src/ and dist/ alike). JavaScript regular expressions backtrack: a
 * pattern such as (a+)+$ can spin for minutes on one line, and on the main
 * thread that would freeze every other reviewer and the webhook server.
 * Terminating the worker interrupts even a regex in mid-match.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const fs = require("node:fs");
const job = workerData;
const regex = new RegExp(job.source, job.flags);
const outcome = { matches: [], more: false, filesScanned: 0, skippedLarge: 0, skippedBinary: 0, budgetExhausted: false };
let scanned = 0;
search: for (const file of job.files) {
  let content;
  try {
    if (fs.statSync(file.realPath).size > job.maxFileBytes) { outcome.skippedLarge++; continue; }
    content = fs.readFileSync(file.realPath);
  } catch { continue; }
  if (content.length > job.maxFileBytes) { outcome.skippedLarge++; continue; }
  if (content.subarray(0, ${BINARY_SNIFF_BYTES}).includes(0)) { outcome.skippedBinary++; continue; }
  if (scanned + content.length > job.maxScannedBytes) { outcome.budgetExhausted = true; break; }
  scanned += content.length;
  outcome.filesScanned++;
  const lines = content.toString("utf8").split(/\\r?\\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (!regex.test(line)) continue;
    if (outcome.matches.length >= job.maxMatches) { outcome.more = true; break search; }
    outcome.matches.push({ file: file.relativePath, line: index + 1, text: line.slice(0, job.maxLineChars), length: line.length });
  }
}
parentPort.postMessage(outcome);
`;

/** Runs one search with a wall-clock budget; a pattern that exceeds it is a tool error. */
export function runGrepWorker(
  job: GrepJob,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<GrepOutcome> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: job,
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    let settled = false;
    const finish = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
      action();
    };
    const onAbort = () => finish(() => reject(signal?.reason ?? new Error("aborted")));
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new ToolError(
              `grep stopped after ${timeoutMs / 1000} s: the pattern is too expensive (nested quantifiers backtrack); simplify it or narrow the path`,
            ),
          ),
        ),
      timeoutMs,
    );
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.once("message", (outcome: GrepOutcome) => finish(() => resolve(outcome)));
    worker.once("error", () =>
      finish(() => reject(new ToolError("grep failed: the search ran out of memory or crashed"))),
    );
    worker.once("exit", () =>
      finish(() => reject(new ToolError("grep failed: the search stopped without an answer"))),
    );
  });
}
