/** What every agent CLI needs to start at all; nothing else of ours is inherited. */
const BASE_VARIABLES = ["PATH", "HOME", "LANG"] as const;

/**
 * The child's whole environment: the base variables plus the names the provider lists
 * (its own key, say). Our other secrets (the GitHub App key, other providers' keys) are
 * simply never copied.
 */
export function buildChildEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  passThrough: readonly string[],
): Record<string, string> {
  const child: Record<string, string> = {};
  for (const name of [...BASE_VARIABLES, ...passThrough]) {
    const value = env[name];
    if (value !== undefined) {
      child[name] = value;
    }
  }
  return child;
}
