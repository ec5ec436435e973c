import type pg from "pg";
import type { Clock } from "../../time/index.js";
import { loadPg } from "../store/postgres-pool.js";

/** The channel `WorkQueue.cancel` notifies; the payload is `{"roundId","reason"}`. */
export const CANCEL_CHANNEL = "gadfly_round_cancel";

export interface CancellationListenerOptions {
  url: string;
  clock: Pick<Clock, "setTimeout" | "clearTimeout">;
  onCancel: (roundId: string, reason: string) => void;
  /** After a reconnect: notifications sent while disconnected were missed. */
  onReconnect?: () => void;
  onError?: (error: unknown) => void;
  /** Wait before reconnecting after the connection dropped. */
  reconnectMs?: number;
}

/**
 * A dedicated connection LISTENing for cancellations, so the worker holding a
 * round learns at once that another process cancelled it. It reconnects
 * after a drop; what it missed meanwhile the heartbeat finds in
 * `queue_cancellations` within a third of the visibility timeout.
 */
export class PostgresCancellationListener {
  private readonly options: CancellationListenerOptions;
  private client: pg.Client | null = null;
  private timer: unknown = null;
  private closed = false;

  private constructor(options: CancellationListenerOptions) {
    this.options = options;
  }

  static async start(options: CancellationListenerOptions): Promise<PostgresCancellationListener> {
    const listener = new PostgresCancellationListener(options);
    await listener.connect();
    return listener;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.options.clock.clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new (loadPg().Client)({
      connectionString: this.options.url,
      application_name: "gadfly-cancellations",
    });
    client.on("notification", (message) => {
      if (message.channel !== CANCEL_CHANNEL || message.payload === undefined) return;
      const parsed = parsePayload(message.payload);
      if (parsed !== null) this.options.onCancel(parsed.roundId, parsed.reason);
    });
    const dropped = (error?: unknown) => {
      if (this.client !== client) return;
      this.client = null;
      if (error !== undefined) this.options.onError?.(error);
      void client.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    client.on("error", dropped);
    client.on("end", () => dropped());
    await client.connect();
    await client.query(`LISTEN ${CANCEL_CHANNEL}`);
    if (this.closed) {
      await client.end();
      return;
    }
    this.client = client;
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    this.timer = this.options.clock.setTimeout(() => {
      this.connect().then(
        () => this.options.onReconnect?.(),
        (error: unknown) => {
          this.options.onError?.(error);
          this.scheduleReconnect();
        },
      );
    }, this.options.reconnectMs ?? 1000);
  }
}

function parsePayload(payload: string): { roundId: string; reason: string } | null {
  try {
    const value: unknown = JSON.parse(payload);
    if (typeof value !== "object" || value === null) return null;
    const { roundId, reason } = value as Record<string, unknown>;
    if (typeof roundId !== "string") return null;
    return { roundId, reason: typeof reason === "string" ? reason : "cancelled" };
  } catch {
    return null;
  }
}
