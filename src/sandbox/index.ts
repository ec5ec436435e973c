export type { AgentIsolation } from "./agent-isolation.js";
export { NO_ISOLATION } from "./agent-isolation.js";
export {
  type BwrapArgvOptions,
  buildBwrapArgv,
  SANDBOX_HOME,
  SANDBOX_WORKSPACE,
} from "./build-bwrap-argv.js";
export {
  type CopyScrubbedWorkspaceOptions,
  copyScrubbedWorkspace,
  type ScrubbedWorkspace,
} from "./copy-scrubbed-workspace.js";
export { DEFAULT_REMOVED_PATHS } from "./default-removed-paths.js";
export {
  type DetectIsolationOptions,
  detectIsolation,
  type ProbeResult,
} from "./detect-isolation.js";
export { hostSystemMounts, type SystemMount } from "./host-system-mounts.js";
export { commandMayReviewFork, type IsolationLevel } from "./isolation-level.js";
export { isolationNotice } from "./isolation-notice.js";
export {
  type AgentSandbox,
  type AgentSandboxOptions,
  openAgentSandbox,
} from "./open-agent-sandbox.js";
export { restrictToOwner } from "./restrict-to-owner.js";
export {
  type SharedCopy,
  type SharedCopyRequest,
  SharedScrubbedCopies,
} from "./shared-scrubbed-copies.js";
