/** A provider `gadfly init` can write: its config entry, its models, and the variables it needs. */
export interface StarterProvider {
  /** What the user picks (`--providers openai,ollama`), also the provider's name in the config. */
  id: string;
  /** One line for the question on a terminal. */
  label: string;
  /** The commented `providers:` entry, indented for the list. */
  entry: string[];
  /** The commented `models:` entries. */
  models: string[];
  /** Variables the entry names, each with one line on where to get it. */
  variables: { name: string; where: string }[];
}

/** Every provider `gadfly init` offers, in the order it asks. */
export const STARTER_PROVIDERS: readonly StarterProvider[] = [
  {
    id: "openai",
    label: "OpenAI, or any OpenAI-compatible API (OpenRouter, vLLM, LiteLLM…)",
    entry: [
      "  # Any OpenAI-compatible chat-completions API: for another server change baseURL",
      "  # (it usually ends in /v1) and apiKeyEnv.",
      "  - name: openai",
      "    type: openai",
      "    baseURL: https://api.openai.com/v1",
      "    apiKeyEnv: OPENAI_API_KEY      # the variable that holds the key, never the key",
      "    # concurrency: 8               # model calls in flight at once, all workers together",
    ],
    models: [
      '  - { id: "gpt-5.1", provider: openai }   # id: what the board shows; model: defaults to id',
    ],
    variables: [
      {
        name: "OPENAI_API_KEY",
        where: "https://platform.openai.com/api-keys (or your server's own key)",
      },
    ],
  },
  {
    id: "anthropic",
    label: "Anthropic's API (Claude), or a gateway in front of it",
    entry: [
      "  # Anthropic's Messages API; for a gateway, set baseURL to its root.",
      "  - name: anthropic",
      "    type: anthropic",
      "    baseURL: https://api.anthropic.com",
      "    apiKeyEnv: ANTHROPIC_API_KEY",
    ],
    models: ['  - { id: "claude-sonnet-5.5", provider: anthropic, model: "claude-sonnet-5-5" }'],
    variables: [
      { name: "ANTHROPIC_API_KEY", where: "https://console.anthropic.com/settings/keys" },
    ],
  },
  {
    id: "ollama",
    label: "Ollama on this machine or your network (no key)",
    entry: [
      "  # A local Ollama daemon: no key. Pull each model first (ollama pull <model>).",
      "  - name: ollama",
      "    type: ollama",
      "    host: http://127.0.0.1:11434",
      "    concurrency: 1                 # one GPU answers one request at a time well",
    ],
    models: ['  - { id: "qwen3-coder", provider: ollama, model: "qwen3-coder:30b" }'],
    variables: [],
  },
  {
    id: "ollama-cloud",
    label: "Ollama's cloud (ollama.com)",
    entry: [
      "  # Ollama's cloud models, e.g. glm-5.2:cloud.",
      "  - name: ollama-cloud",
      "    type: ollama",
      "    host: https://ollama.com",
      "    apiKeyEnv: OLLAMA_API_KEY",
    ],
    models: ['  - { id: "glm-5.2:cloud", provider: ollama-cloud }'],
    variables: [{ name: "OLLAMA_API_KEY", where: "https://ollama.com/settings/keys" }],
  },
  {
    id: "claude-code",
    label: "Claude Code, an agent CLI run in a sandboxed copy of the PR",
    entry: [
      "  # An agent CLI, run without a shell in a scrubbed copy of the pull request with an",
      "  # empty HOME (a saved login is not seen: give it a key in env). Install `claude` on",
      "  # the host first; check the flags against `claude --help`. See docs/agent-cli-sandbox.md.",
      "  # --setting-sources user --strict-mcp-config: recommended, not required (Gadfly removes",
      "  # project settings anyway); with them Claude Code loads no CLAUDE.md, and the repository's",
      "  # conventions reach the model through Gadfly's prompt instead.",
      "  - name: claude-code",
      "    type: command",
      '    command: ["claude", "-p", "--model", "{model}", "--output-format", "stream-json",',
      '              "--verbose", "--setting-sources", "user", "--strict-mcp-config"]',
      "    env: [ANTHROPIC_API_KEY]",
      "    # allowForks: false            # below bubblewrap isolation, fork PRs are skipped",
    ],
    models: ['  - { id: "claude-code/opus", provider: claude-code, model: opus }'],
    variables: [
      { name: "ANTHROPIC_API_KEY", where: "https://console.anthropic.com/settings/keys" },
    ],
  },
  {
    id: "codex",
    label: "Codex CLI, an agent CLI run in a sandboxed copy of the PR",
    entry: [
      "  # OpenAI's Codex CLI as an agent (install `codex` on the host first; check the flags",
      "  # against `codex exec --help`). See docs/agent-cli-sandbox.md.",
      "  - name: codex",
      "    type: command",
      "  # --sandbox danger-full-access: Codex's own sandbox cannot start inside Gadfly's bubblewrap",
      "  # (its shell would fail), and Gadfly's is the boundary; --skip-git-repo-check: no .git.",
      '  # Codex reads CODEX_API_KEY; a gateway: add "-c", "openai_base_url=https://…/v1".',
      '    command: ["codex", "exec", "--json", "--model", "{model}", "--sandbox",',
      '              "danger-full-access", "--skip-git-repo-check", "--ephemeral", "-"]',
      "    env: [CODEX_API_KEY]",
    ],
    models: ['  - { id: "codex/gpt-5.1-codex", provider: codex, model: "gpt-5.1-codex" }'],
    variables: [{ name: "CODEX_API_KEY", where: "https://platform.openai.com/api-keys" }],
  },
  {
    id: "gemini-cli",
    label: "Gemini CLI, an agent CLI run in a sandboxed copy of the PR",
    entry: [
      "  # Google's Gemini CLI as an agent (install `gemini` on the host first; check the flags",
      "  # against `gemini --help`). See docs/agent-cli-sandbox.md.",
      '  # --skip-trust: without it Gemini CLI exits 55 ("not running in a trusted directory");',
      "  # safe here: Gadfly's copy holds no .gemini/ or .env.",
      "  - name: gemini-cli",
      "    type: command",
      '    command: ["gemini", "--skip-trust", "--model", "{model}"]',
      "    env: [GEMINI_API_KEY]",
    ],
    models: [
      '  - { id: "gemini-cli/gemini-2.5-pro", provider: gemini-cli, model: "gemini-2.5-pro" }',
    ],
    variables: [{ name: "GEMINI_API_KEY", where: "https://aistudio.google.com/apikey" }],
  },
];
