import type { FakeState } from "./fake-state.js";
import type { RepositoryRecord, RepositorySnapshot, Tree } from "./types.js";

export type FileContent = string | Buffer;

export interface AddRepositoryInput {
  owner: string;
  name: string;
  ownerType?: "User" | "Organization";
  defaultBranch?: string;
  private?: boolean;
  /** Files of the default branch's first commit. */
  files?: Record<string, FileContent>;
  /** The installation holding the repository; the owner's (or a new one) by default. */
  installationId?: number;
}

export function toBuffer(content: FileContent): Buffer {
  return typeof content === "string" ? Buffer.from(content, "utf8") : content;
}

/** Seeds a repository with one commit on its default branch. */
export function addRepository(state: FakeState, input: AddRepositoryInput): RepositorySnapshot {
  if (state.findRepository(input.owner, input.name) !== undefined) {
    throw new Error(`repository ${input.owner}/${input.name} already exists`);
  }
  const owner = state.user(input.owner, input.ownerType ?? "User");
  const installationId =
    input.installationId ??
    [...state.installations.values()].find((installation) => installation.account.id === owner.id)
      ?.id ??
    state.nextId();
  if (!state.installations.has(installationId)) {
    state.installations.set(installationId, { id: installationId, account: owner });
  }
  const defaultBranch = input.defaultBranch ?? "main";
  const repository: RepositoryRecord = {
    id: state.nextId(),
    owner,
    name: input.name,
    defaultBranch,
    private: input.private ?? false,
    installationId,
    branches: new Map(),
    commits: new Map(),
    collaborators: new Map(),
    pullRequests: new Map(),
    nextIssueNumber: 1,
  };
  if (owner.type === "User") repository.collaborators.set(owner.login.toLowerCase(), "admin");
  const tree: Tree = new Map();
  for (const [path, content] of Object.entries(input.files ?? {}))
    tree.set(path, toBuffer(content));
  const commit = state.createCommit(repository, undefined, tree, "Initial commit");
  repository.branches.set(defaultBranch, commit.sha);
  state.repositories.set(`${owner.login}/${input.name}`.toLowerCase(), repository);
  return state.repositorySnapshot(repository);
}
