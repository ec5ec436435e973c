import { ConfigError, RepoConfig } from "../config/index.js";

/** --models and --lenses, within the same bounds as a repository's choices; a breach is a usage error. */
export function parseChoices(options: {
  models: string[] | null;
  lenses: string[] | null;
}): RepoConfig {
  const parsed = RepoConfig.safeParse({
    ...(options.models === null ? {} : { models: options.models }),
    ...(options.lenses === null ? {} : { lenses: options.lenses }),
  });
  if (!parsed.success) throw ConfigError.fromZod("command line", parsed.error);
  return parsed.data;
}
