import { randomBytes } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type DoctorCheck, doctorCheck } from "./doctor-check.js";

/** The data directory can be created and written, as the app's store and workspaces need. */
export async function checkDataDir(dataDir: string): Promise<DoctorCheck> {
  const probe = join(dataDir, `.doctor-${randomBytes(6).toString("hex")}`);
  try {
    await mkdir(dataDir, { recursive: true });
    await writeFile(probe, "", { flag: "wx" });
    await rm(probe, { force: true });
    return doctorCheck("data-dir", "data directory", "pass", `${dataDir} is writable`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    return doctorCheck(
      "data-dir",
      "data directory",
      "fail",
      `${dataDir} is not writable (${code})`,
      "create it and give the app's user write access, or point GADFLY_DATA_DIR elsewhere",
    );
  }
}
