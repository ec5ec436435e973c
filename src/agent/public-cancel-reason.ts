/**
 * Why a lens or a round was stopped, in words fit for the board: the reasons we
 * abort with are ours (a string such as "superseded by 1a2b3c4", a job stop, a
 * timeout carrying `publicMessage`); any other abort reason is only "cancelled",
 * since its message could hold anything.
 */
export function publicCancelReason(reason: unknown): string {
  if (typeof reason === "string" && reason.trim() !== "") return oneLine(reason);
  if (typeof reason === "object" && reason !== null) {
    const candidate = reason as { publicMessage?: unknown; name?: unknown; message?: unknown };
    if (typeof candidate.publicMessage === "string" && candidate.publicMessage.trim() !== "") {
      return oneLine(candidate.publicMessage);
    }
    // Our queue's stop reasons: "shutting down", "another worker took over", a cancel reason.
    if (candidate.name === "JobStopError" && typeof candidate.message === "string") {
      return oneLine(candidate.message);
    }
  }
  return "cancelled";
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= 300 ? line : `${line.slice(0, 299)}…`;
}
