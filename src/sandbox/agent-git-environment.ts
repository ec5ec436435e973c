/**
 * What any git the agent runs is told, through the environment (command-line precedence, so
 * no repository config can undo it): a bare-repository layout in the copy (`HEAD`, `config`,
 * `objects/` at its root, all files of the pull request) is never taken for a repository
 * (`safe.bareRepository=explicit`, which also keeps git from reading that `config`, so its
 * `core.fsmonitor` command never runs), no hooks run (`core.hooksPath=/dev/null`), no
 * fsmonitor command runs, and git does not look for a repository above the run's directory.
 */
export function agentGitEnvironment(ceiling: string): Record<string, string> {
  const settings: [string, string][] = [
    ["safe.bareRepository", "explicit"],
    ["core.hooksPath", "/dev/null"],
    ["core.fsmonitor", "false"],
  ];
  const environment: Record<string, string> = {
    GIT_CONFIG_COUNT: String(settings.length),
    GIT_CEILING_DIRECTORIES: ceiling,
    GIT_CONFIG_NOSYSTEM: "1",
  };
  for (const [index, [key, value]] of settings.entries()) {
    environment[`GIT_CONFIG_KEY_${index}`] = key;
    environment[`GIT_CONFIG_VALUE_${index}`] = value;
  }
  return environment;
}
