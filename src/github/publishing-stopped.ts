import type { StopReason } from "./round-registry.js";

/**
 * Thrown before a publishing step when the round must not go on: superseded or cancelled
 * (it then ends `cancelled` with nothing more posted), taken over, or shut down.
 */
export class PublishingStopped extends Error {
  constructor(readonly reason: StopReason) {
    super(`publishing stopped: ${reason.kind}`);
    this.name = "PublishingStopped";
  }
}
