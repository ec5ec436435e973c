import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const FIXTURE_REPO = fileURLToPath(new URL("../../fixtures/repo", import.meta.url));

/** A marker that lives only outside the workspace: it must never show up in a tool's answer. */
export const OUTSIDE_SECRET = "OUTSIDE-SECRET-7f3a";

export interface TemporaryWorkspace {
  /** The copy of the fixture repository (the workspace root). */
  root: string;
  /** A sibling directory outside the workspace, holding secret.txt. */
  outside: string;
  write(relativePath: string, content: string | Uint8Array): Promise<void>;
  link(relativePath: string, target: string): Promise<void>;
  remove(): Promise<void>;
}

/** A copy of the fixture repository in a temp dir, next to a directory it must not reach. */
export async function temporaryWorkspace(): Promise<TemporaryWorkspace> {
  const base = await mkdtemp(join(tmpdir(), "gadfly-agent-"));
  const root = join(base, "repo");
  const outside = join(base, "outside");
  await cp(FIXTURE_REPO, root, { recursive: true });
  await mkdir(outside);
  await writeFile(join(outside, "secret.txt"), `${OUTSIDE_SECRET}\nfindUserByName\n`);
  return {
    root,
    outside,
    async write(relativePath, content) {
      await mkdir(dirname(join(root, relativePath)), { recursive: true });
      await writeFile(join(root, relativePath), content);
    },
    async link(relativePath, target) {
      await mkdir(dirname(join(root, relativePath)), { recursive: true });
      await symlink(target, join(root, relativePath));
    },
    remove: () => rm(base, { recursive: true, force: true }),
  };
}
