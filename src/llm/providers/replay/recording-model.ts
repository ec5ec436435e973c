import type { LanguageModel } from "../../language-model.js";
import { wrapLanguageModel } from "../../wrap-language-model.js";
import { recordingPath } from "./recording-path.js";
import { RECORDING_FORMAT, RECORDING_VERSION, type Recording } from "./schema.js";
import { writeRecording } from "./write-recording.js";

export interface RecordingOptions {
  dir: string;
  lens: string;
}

/**
 * Wraps a real model so each successful answer is appended to its recording
 * (`<dir>/<model id>/<lens>.json`, format in replay-model.ts), which the replay provider
 * then answers from. The file is rewritten after every answer, so an interrupted run still
 * leaves what it got; a new wrapper starts the recording afresh. Failed calls are not
 * recorded. Place it inside the retry wrapper, so only the attempt that succeeded counts.
 */
export function recordingModel(model: LanguageModel, options: RecordingOptions): LanguageModel {
  const path = recordingPath(options.dir, model.modelId, options.lens);
  const header = {
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    modelId: model.modelId,
    lens: options.lens,
  } as const;
  // Writes are chained so that concurrent calls can never interleave two rewrites.
  let written: Promise<void> = Promise.resolve();
  const save = (recording: Recording): Promise<void> => {
    written = written.catch(() => {}).then(() => writeRecording(path, recording));
    return written;
  };

  const recording: Recording =
    model.kind === "chat"
      ? { ...header, kind: "chat", turns: [] }
      : { ...header, kind: "agent", runs: [] };
  return wrapLanguageModel(model, {
    chat: async (request, next) => {
      const result = await next(request);
      if (recording.kind === "chat") {
        recording.turns.push({
          requestMessageCount: request.messages.length,
          result: structuredClone(result),
        });
      }
      await save(recording);
      return result;
    },
    run: async (request, next) => {
      const result = await next(request);
      if (recording.kind === "agent") recording.runs.push({ result: structuredClone(result) });
      await save(recording);
      return result;
    },
  });
}
