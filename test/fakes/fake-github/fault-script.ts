import { matchesPathPattern, type PathPattern } from "./path-pattern.js";

export interface ScriptedFault {
  method: string;
  path: PathPattern;
  status: number;
  /** JSON answered; GitHub's error shape for the status when omitted. */
  body?: unknown;
  headers?: Record<string, string>;
  /** How many matching requests it answers before it is used up (default 1). */
  times?: number;
  /**
   * The request is carried out first (the comment, review or check is created), and only the
   * answer is the fault: what GitHub does when it creates the object and then answers 502.
   */
  afterDoing?: boolean;
}

export interface FaultAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  afterDoing: boolean;
}

interface Latency {
  method: string;
  path: PathPattern;
  milliseconds: number;
}

const defaultMessages: Record<number, string> = {
  401: "Bad credentials",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  422: "Unprocessable Entity",
  500: "Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

/** Scripted responses and latencies that tests queue per method and path. */
export class FaultScript {
  readonly #faults: { fault: ScriptedFault; remaining: number }[] = [];
  readonly #latencies: Latency[] = [];

  enqueue(fault: ScriptedFault): void {
    this.#faults.push({ fault, remaining: fault.times ?? 1 });
  }

  setLatency(method: string, path: PathPattern, milliseconds: number): void {
    this.#latencies.push({ method: method.toUpperCase(), path, milliseconds });
  }

  clear(): void {
    this.#faults.length = 0;
    this.#latencies.length = 0;
  }

  /** The first queued fault matching the request, consumed. */
  take(method: string, path: string): FaultAnswer | undefined {
    const index = this.#faults.findIndex(
      ({ fault }) => fault.method.toUpperCase() === method && matchesPathPattern(fault.path, path),
    );
    const queued = this.#faults[index];
    if (queued === undefined) return undefined;
    queued.remaining--;
    if (queued.remaining <= 0) this.#faults.splice(index, 1);
    const { fault } = queued;
    return {
      status: fault.status,
      body: fault.body ?? {
        message: defaultMessages[fault.status] ?? "Error",
        documentation_url: "https://docs.github.com/rest",
        status: String(fault.status),
      },
      headers: fault.headers ?? {},
      afterDoing: fault.afterDoing === true,
    };
  }

  latency(method: string, path: string): number {
    return this.#latencies
      .filter((latency) => latency.method === method && matchesPathPattern(latency.path, path))
      .reduce((total, latency) => total + latency.milliseconds, 0);
  }

  get pending(): number {
    return this.#faults.length;
  }
}
