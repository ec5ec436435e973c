import { createHash } from "node:crypto";

/**
 * The job id of a round, derived from its id: enqueueing the same round
 * twice (two receivers, or a resume) inserts one job. A name-based UUID
 * (version 5 layout, SHA-256 instead of SHA-1), since pg-boss ids are UUIDs.
 */
export function roundJobId(roundId: string): string {
  const bytes = createHash("sha256")
    .update(`gadfly-round\u0000${roundId}`)
    .digest()
    .subarray(0, 16);
  bytes.writeUInt8((bytes.readUInt8(6) & 0x0f) | 0x50, 6);
  bytes.writeUInt8((bytes.readUInt8(8) & 0x3f) | 0x80, 8);
  const hex = bytes.toString("hex");
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    hex.slice(12, 16),
    hex.slice(16, 20),
    hex.slice(20, 32),
  ].join("-");
}
