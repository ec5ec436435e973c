import { lstat, readlink, stat } from "node:fs/promises";

/** How one top-level system path appears inside the sandbox. */
export type SystemMount =
  | { kind: "read-only"; path: string }
  | { kind: "symlink"; path: string; target: string };

// What programs need to run: binaries and libraries. /usr holds most of them; the others
// are directories on some systems and links into /usr on merged-/usr ones like Debian 12.
const TOP_LEVEL = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] as const;

/**
 * The few files of /etc a CLI needs to resolve names, speak TLS, find its alternatives
 * and its libraries — not /etc as a whole, which may hold the host's own secrets.
 */
const ETC_FILES = [
  "/etc/alternatives",
  "/etc/ca-certificates",
  "/etc/ca-certificates.conf",
  "/etc/crypto-policies",
  "/etc/gai.conf",
  "/etc/group",
  "/etc/host.conf",
  "/etc/hosts",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/localtime",
  "/etc/mime.types",
  "/etc/nsswitch.conf",
  "/etc/passwd",
  "/etc/pki",
  "/etc/resolv.conf",
  "/etc/ssl",
] as const;

/**
 * The system paths of this host as the sandbox should show them: directories bound
 * read-only, links recreated as links, missing ones left out.
 */
export async function hostSystemMounts(): Promise<SystemMount[]> {
  const mounts: SystemMount[] = [];
  for (const path of TOP_LEVEL) {
    try {
      const stats = await lstat(path);
      mounts.push(
        stats.isSymbolicLink()
          ? { kind: "symlink", path, target: await readlink(path) }
          : { kind: "read-only", path },
      );
    } catch {
      // Not on this host: nothing to show.
    }
  }
  for (const path of ETC_FILES) {
    // Bound through any link (resolv.conf often points into /run): the content is what counts.
    if (
      await stat(path).then(
        () => true,
        () => false,
      )
    ) {
      mounts.push({ kind: "read-only", path });
    }
  }
  return mounts;
}
