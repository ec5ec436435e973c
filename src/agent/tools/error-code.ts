/** The errno code of a file-system error, only: its message could carry the server's absolute paths. */
export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "error";
}
