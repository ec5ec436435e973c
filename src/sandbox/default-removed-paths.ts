/**
 * Paths removed from an agent CLI's copy of the pull request, at any depth, because an
 * agent CLI started in (or under) them would load them as its own configuration: hooks,
 * MCP servers, plugins, extensions, environment files and settings all start programs
 * or change where the CLI sends its key, and in non-interactive mode the CLIs do not ask
 * whether the folder is trusted. A trailing `/` marks a directory, but whatever carries
 * the name goes (a symbolic link named `.claude` would otherwise stand in for one).
 *
 * Kept on purpose: instruction documents (`CLAUDE.md`, `AGENTS.md`, `GEMINI.md`,
 * `.cursorrules`, `.github/copilot-instructions.md`). They configure nothing that runs;
 * they are text the model reads like any other file of the pull request, and a review of
 * a change to them needs them. The review prompt already treats the tree as untrusted data.
 *
 * Sources (each CLI's documentation of its project-level files, checked 2026-11):
 * - Claude Code: `.claude/` (settings.json, settings.local.json with `hooks`, `env`,
 *   `permissions`; commands, agents, skills, hook scripts), `.mcp.json` (project MCP servers).
 * - OpenAI Codex: `.codex/` (config.toml layers from the project root down, MCP servers),
 *   `.agents/` (repository skills: instructions and scripts the agent is invited to run).
 * - Gemini CLI: `.gemini/` (settings.json, extensions, commands, `.gemini/.env`) and `.env`
 *   (loaded from the working directory upwards: it could set a proxy or a base URL).
 * - Qwen Code (a Gemini CLI fork): `.qwen/`.
 * - Cursor CLI: `.cursor/` (cli.json permissions, mcp.json, hooks.json, rules).
 * - GitHub Copilot CLI: `.github/hooks/` (hooks loaded from the working directory),
 *   `.github/mcp.json`, `.vscode/mcp.json`, `.mcp.json`; `.github/copilot/` as a precaution.
 * - opencode: `opencode.json`, `opencode.jsonc`, `.opencode/` (plugins are code it loads).
 * - Crush: `crush.json`, `.crush.json`. Aider: `.aider.conf.yml`, `.aider.model.settings.yml`,
 *   `.aider.model.metadata.json`. Continue: `.continue/`. Kiro: `.kiro/` (hooks, MCP).
 *   Roo Code: `.roo/`. Windsurf: `.windsurf/`.
 *
 * Operators extend it per provider with `removePaths` for a CLI this list does not know.
 */
export const DEFAULT_REMOVED_PATHS: readonly string[] = Object.freeze([
  ".claude/",
  ".mcp.json",
  ".codex/",
  ".agents/",
  ".gemini/",
  ".env",
  ".qwen/",
  ".cursor/",
  ".github/hooks/",
  ".github/mcp.json",
  ".github/copilot/",
  ".vscode/mcp.json",
  "opencode.json",
  "opencode.jsonc",
  ".opencode/",
  "crush.json",
  ".crush.json",
  ".aider.conf.yml",
  ".aider.model.settings.yml",
  ".aider.model.metadata.json",
  ".continue/",
  ".kiro/",
  ".roo/",
  ".windsurf/",
]);
