import type {
  ChangeSet,
  RoundJournal,
  RoundRequest,
  RoundRuntime,
  RoundSubject,
} from "../../src/run/index.js";

/** A test's changes to a round: each part merged over the base's part of the same name. */
export interface RequestParts {
  subject?: Partial<RoundSubject>;
  change?: ChangeSet;
  runtime?: Partial<RoundRuntime>;
  journal?: RoundJournal;
}

/** A round request from a test's base and its changes, part by part. */
export function roundRequest(
  base: RoundRequest<ChangeSet>,
  parts: RequestParts = {},
): RoundRequest<ChangeSet> {
  return {
    subject: { ...base.subject, ...parts.subject },
    change: parts.change ?? base.change,
    runtime: { ...base.runtime, ...parts.runtime },
    journal: { ...base.journal, ...parts.journal },
  };
}
