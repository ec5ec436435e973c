/** The text of `gadfly --help`. */
export function usageText(): string {
  return `Usage:
  gadfly review [options]   review a local git change with several models
  gadfly init [--providers a,b] [--config FILE]
                            write a starter gadfly.config.yml and .env.example
                            (never over an existing file); asks on a terminal
                            without --providers: openai, anthropic, ollama,
                            ollama-cloud, claude-code, codex
  gadfly doctor [--config FILE] [--format text|json]
                            check everything the GitHub App needs: config,
                            keys, providers and models, the App's credentials
                            and installations, webhook secret, data directory,
                            database, agent CLI isolation (exit 1 on a failure)
  gadfly stats [--since 30d] [--repo owner/name] [--format text|json|csv]
                            score each model and lens over the last 30 days
                            (or 12h, 2w…) from the app's store
                            (GADFLY_DATABASE_URL, else GADFLY_DATA_DIR):
                            findings, agreement, cross-examination, fixed,
                            dismissed, reactions, cost per useful finding,
                            time, failures; --config FILE for the prices
  gadfly worker [--config FILE]
                            run review workers for the GitHub App (needs
                            GADFLY_DATABASE_URL; see docs/running-at-scale.md)
  gadfly --help             show this help
  gadfly --version          show the version

Review options:
  --base REF            compare against REF (default: the merge-base with the
                        default branch: origin/HEAD, main or master)
  --head REF            review the commit REF (default: the working tree,
                        uncommitted and untracked files included)
  --repo PATH           the repository to review (default: .)
  --models a,b          only these model ids from the config
  --lenses x,y          only these lenses (security, correctness, ...)
  --config FILE         the config (default: $GADFLY_CONFIG, else
                        $XDG_CONFIG_HOME/gadfly/config.yml, else
                        ~/.config/gadfly/config.yml); a gadfly.config.yml in
                        the reviewed tree is never read
  --concurrency N       reviewers in flight at once (1-64)
  --no-verify           skip the verify pass
  --format FORMAT       text, markdown, json or sarif (default: text on a
                        terminal, markdown otherwise)
  --output FILE         write the report to FILE instead of stdout
  --fail-on LEVEL       exit 1 when a finding is at least LEVEL (high or
                        medium); without it the exit code is 0 (advisory)
  --record DIR          save every model transcript into DIR
  --replay DIR          answer from the transcripts in DIR, no model at all
  --demo                review the bundled demo change from its recordings
  --no-progress         no live progress on stderr

Exit codes: 0 reviewed, 1 --fail-on threshold reached, 2 usage or config error,
3 no model completed the review.
`;
}
