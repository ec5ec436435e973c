/**
 * The local change cannot be collected because of what the user pointed at (not a repository,
 * an unknown ref, git missing). One line, shown as is; the entry point exits with code 2.
 */
export class LocalChangeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LocalChangeError";
  }
}
