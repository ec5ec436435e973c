import { randomUUID } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { Recording } from "./schema.js";

/** Writes a recording whole, through a temporary file, so a crash never leaves half a file. */
export async function writeRecording(path: string, recording: Recording): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${randomUUID()}.tmp`;
  await writeFile(temporary, `${JSON.stringify(recording, null, 2)}\n`, "utf8");
  await rename(temporary, path);
}
