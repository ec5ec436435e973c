import type { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream";
import zlib from "node:zlib";

/**
 * The body as the application reads it: `source` undone of its content codings (gzip,
 * deflate, br, in the reverse of the order they were applied), as fetch does. An unknown
 * coding leaves the body as it came. Errors of any stage reach `onError` once.
 */
export function decodeContent(
  source: Readable,
  contentEncoding: string | null,
  onError: (error: Error) => void,
): Readable {
  const codings =
    contentEncoding === null
      ? []
      : contentEncoding
          .toLowerCase()
          .split(",")
          .map((coding) => coding.trim())
          .filter((coding) => coding !== "" && coding !== "identity");
  const decoders: Transform[] = [];
  for (const coding of codings.reverse()) {
    const decoder = decoderFor(coding);
    if (decoder === null) {
      return withErrors(source, onError);
    }
    decoders.push(decoder);
  }
  if (decoders.length === 0) return withErrors(source, onError);
  // Lenient about a truncated end, as fetch is: what was decoded is kept.
  pipeline([source, ...decoders], (error) => {
    if (error) onError(error);
  });
  return decoders[decoders.length - 1] as Transform;
}

function decoderFor(coding: string): Transform | null {
  const lenient = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  switch (coding) {
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip(lenient);
    case "deflate":
      return zlib.createInflate(lenient);
    case "br":
      return zlib.createBrotliDecompress({
        flush: zlib.constants.BROTLI_OPERATION_FLUSH,
        finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
      });
    default:
      return null;
  }
}

function withErrors(source: Readable, onError: (error: Error) => void): Readable {
  source.on("error", onError);
  return source;
}
