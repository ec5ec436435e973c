/**
 * Typed model errors. `isRetryable` drives the retry policy; `publicMessage`
 * is what may appear on a status board: no stack, no key, no response body.
 */
export class ModelError extends Error {
  readonly isRetryable: boolean;
  readonly statusCode: number | undefined;
  /** Server-requested wait before retrying (from Retry-After), in milliseconds. */
  readonly retryAfterMs: number | undefined;
  /** What may be published when the message holds detail only the log should see. */
  readonly #publicMessage: string | undefined;

  constructor(
    message: string,
    options: {
      isRetryable?: boolean;
      statusCode?: number;
      retryAfterMs?: number;
      cause?: unknown;
      /** A shorter public text, when `message` quotes output such as a process's stderr. */
      publicMessage?: string;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.#publicMessage = options.publicMessage;
    this.name = "ModelError";
    this.isRetryable = options.isRetryable ?? false;
    this.statusCode = options.statusCode;
    this.retryAfterMs = options.retryAfterMs;
  }

  get publicMessage(): string {
    return this.#publicMessage ?? this.message;
  }
}

/** The call was aborted by its signal (a newer push, a shutdown). Never retried. */
export class ModelAbortedError extends ModelError {
  constructor(message = "cancelled", options: { cause?: unknown } = {}) {
    super(message, { isRetryable: false, ...options });
    this.name = "ModelAbortedError";
  }
}

/** The call exceeded its time budget. */
export class ModelTimeoutError extends ModelError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { isRetryable: false, ...options });
    this.name = "ModelTimeoutError";
  }
}

/** The provider answered, but not with anything we can use. */
export class InvalidModelResponseError extends ModelError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { isRetryable: false, ...options });
    this.name = "InvalidModelResponseError";
  }
}

export function isModelError(error: unknown): error is ModelError {
  return error instanceof ModelError;
}
