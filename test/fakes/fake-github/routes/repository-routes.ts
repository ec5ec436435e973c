import { buildTarball } from "../build-tarball.js";
import { gitBlobSha } from "../git-blob-sha.js";
import { githubError } from "../github-error.js";
import { type RepositoryRouteContext, repositoryRoute } from "../repository-route.js";
import type { Route } from "../route.js";
import type { Permission } from "../types.js";
import { repositoryJson } from "../views/repository-json.js";
import { userJson } from "../views/user-json.js";

// GitHub answers files above 1 MB through the contents API without content.
const inlineContentLimit = 1024 * 1024;

/** The repository itself, its contents, tarballs and collaborator permissions. */
export const repositoryRoutes: Route[] = [
  repositoryRoute("GET", "/repos/{owner}/{repo}", (context) => ({
    status: 200,
    json: {
      ...repositoryJson(context.state.repositorySnapshot(context.repository)),
      permissions: { admin: false, maintain: false, push: true, triage: true, pull: true },
    },
  })),
  repositoryRoute("GET", "/repos/{owner}/{repo}/contents/{path}", getContents),
  repositoryRoute("GET", "/repos/{owner}/{repo}/git/trees/{tree_sha}", getTree),
  repositoryRoute("GET", "/repos/{owner}/{repo}/tarball/{ref}", (context) => {
    const commit = context.state.resolveRef(context.repository, context.params.ref ?? "");
    if (commit === undefined) return githubError(404, "Not Found");
    const { owner, name } = context.repository;
    return {
      status: 302,
      headers: {
        location: `${context.origin}/_codeload/${owner.login}/${name}/legacy.tar.gz/${commit.sha}`,
      },
    };
  }),
  {
    // Where the tarball redirect leads, like codeload.github.com.
    method: "GET",
    path: "/_codeload/{owner}/{repo}/legacy.tar.gz/{ref}",
    validateBody: false,
    handle(context) {
      const repository = context.state.findRepository(
        context.params.owner ?? "",
        context.params.repo ?? "",
      );
      const commit =
        repository === undefined
          ? undefined
          : context.state.resolveRef(repository, context.params.ref ?? "");
      if (repository === undefined || commit === undefined) return githubError(404, "Not Found");
      const prefix = `${repository.owner.login}-${repository.name}-${commit.sha.slice(0, 7)}`;
      return {
        status: 200,
        bytes: buildTarball(prefix, commit.tree, commit.sha, context.state.now()),
        headers: {
          "content-type": "application/x-gzip",
          "content-disposition": `attachment; filename=${prefix}.tar.gz`,
        },
      };
    },
  },
  repositoryRoute("GET", "/repos/{owner}/{repo}/collaborators/{username}/permission", (context) => {
    const username = context.params.username ?? "";
    // Like GitHub: a name no account could have is not found, not "none".
    if (!GITHUB_LOGIN.test(username)) return githubError(404, "Not Found");
    const role: Permission = context.repository.collaborators.get(username.toLowerCase()) ?? "none";
    const user = context.state.user(username);
    const can = {
      admin: role === "admin",
      maintain: role === "admin" || role === "maintain",
      push: role === "admin" || role === "maintain" || role === "write",
      triage: role !== "read" && role !== "none",
      pull: role !== "none",
    };
    return {
      status: 200,
      json: {
        // The legacy field knows only admin, write, read and none: maintain reads as write,
        // triage as read; `role_name` tells them apart.
        permission: legacyPermission(role),
        role_name: role,
        user: { ...userJson(user, context.state.urls), permissions: can, role_name: role },
      },
    };
  }),
];

/** GitHub logins: letters, digits and single hyphens, at most 39 characters (`[bot]` for apps). */
const GITHUB_LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}(?:\[bot\])?$/;

function legacyPermission(role: Permission): "admin" | "write" | "read" | "none" {
  if (role === "maintain") return "write";
  if (role === "triage") return "read";
  return role;
}

/**
 * A commit's tree (by commit SHA or ref, as GitHub accepts), with `recursive` every entry below
 * it: blobs and the directories that hold them. Never truncated (the fake's trees are small).
 */
function getTree(context: RepositoryRouteContext) {
  const { state, repository } = context;
  const commit = state.resolveRef(repository, context.params.tree_sha ?? "");
  if (commit === undefined) return githubError(404, "Not Found");
  const recursive = context.query.has("recursive");
  const api = `${state.urls.api}/repos/${repository.owner.login}/${repository.name}/git`;
  const directories = new Set<string>();
  const entries: Record<string, unknown>[] = [];
  for (const [path, content] of [...commit.tree].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const parts = path.split("/");
    for (let depth = 1; depth < parts.length; depth++) {
      const dir = parts.slice(0, depth).join("/");
      if (directories.has(dir) || (!recursive && depth > 1)) continue;
      directories.add(dir);
      const sha = gitBlobSha(Buffer.from(`tree ${dir}`));
      entries.push({ path: dir, mode: "040000", type: "tree", sha, url: `${api}/trees/${sha}` });
    }
    if (!recursive && parts.length > 1) continue;
    const sha = gitBlobSha(content);
    entries.push({
      path,
      mode: "100644",
      type: "blob",
      sha,
      size: content.length,
      url: `${api}/blobs/${sha}`,
    });
  }
  return {
    status: 200,
    json: { sha: commit.sha, url: `${api}/trees/${commit.sha}`, tree: entries, truncated: false },
  };
}

function getContents(context: RepositoryRouteContext) {
  const { state, repository } = context;
  const ref = context.query.get("ref") ?? repository.defaultBranch;
  const commit = state.resolveRef(repository, ref);
  if (commit === undefined) return githubError(404, `No commit found for the ref ${ref}`);
  const path = (context.params.path ?? "").replace(/\/+$/, "");
  const fullName = `${repository.owner.login}/${repository.name}`;
  const entryJson = (entryPath: string, type: "file" | "dir", content: Buffer | undefined) => {
    const url = `${state.urls.api}/repos/${fullName}/contents/${entryPath}?ref=${encodeURIComponent(ref)}`;
    const sha = gitBlobSha(content ?? Buffer.from(entryPath));
    return {
      type,
      name: entryPath.split("/").at(-1) ?? entryPath,
      path: entryPath,
      sha,
      size: content?.length ?? 0,
      url,
      html_url: `${state.urls.html}/${fullName}/${type === "file" ? "blob" : "tree"}/${ref}/${entryPath}`,
      git_url: `${state.urls.api}/repos/${fullName}/git/${type === "file" ? "blobs" : "trees"}/${sha}`,
      download_url:
        type === "file" ? `${state.urls.html}/${fullName}/raw/${commit.sha}/${entryPath}` : null,
      _links: { self: url, git: null, html: null },
    };
  };
  const content = commit.tree.get(path);
  if (content !== undefined) {
    const accept = String(context.headers.accept ?? "");
    if (/application\/vnd\.github(\.v3)?\.raw/.test(accept)) {
      return {
        status: 200,
        bytes: content,
        headers: { "content-type": "application/vnd.github.raw; charset=utf-8" },
      };
    }
    const inline = content.length <= inlineContentLimit;
    return {
      status: 200,
      json: {
        ...entryJson(path, "file", content),
        // GitHub wraps base64 content at 60 characters per line.
        content: inline ? (content.toString("base64").match(/.{1,60}/g) ?? []).join("\n") : "",
        encoding: inline ? "base64" : "none",
      },
    };
  }
  const children = new Map<string, "file" | "dir">();
  for (const filePath of commit.tree.keys()) {
    if (path !== "" && !filePath.startsWith(`${path}/`)) continue;
    const rest = path === "" ? filePath : filePath.slice(path.length + 1);
    const [first, ...more] = rest.split("/");
    if (first !== undefined) children.set(first, more.length > 0 ? "dir" : "file");
  }
  if (children.size === 0) return githubError(404, "Not Found");
  return {
    status: 200,
    json: [...children.entries()]
      .sort(([left], [right]) => (left < right ? -1 : 1))
      .map(([name, type]) => {
        const childPath = path === "" ? name : `${path}/${name}`;
        return entryJson(childPath, type, type === "file" ? commit.tree.get(childPath) : undefined);
      }),
  };
}
