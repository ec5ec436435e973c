import type pg from "pg";
import type { Clock } from "../../time/index.js";
import { loadPg } from "../store/postgres-pool.js";

/** The channel `WorkQueue.hint` notifies; the payload is the round's id. */
export const HINT_CHANNEL = "gadfly_round_hint";

export interface HintListenerOptions {
  url: string;
  clock: Pick<Clock, "setTimeout" | "clearTimeout">;
  onHint: (roundId: string) => void;
  /** After a reconnect: hints sent while disconnected were missed. */
  onReconnect?: () => void;
  onError?: (error: unknown) => void;
  /** Wait before reconnecting after the connection dropped. */
  reconnectMs?: number;
}

/**
 * A dedicated connection LISTENing for hints, so the worker holding a round reads its state at
 * once when another process cancelled it. It reconnects after a drop (a restart of the server
 * ends it with 57P01: heard here, never an uncaught error); what it missed meanwhile each lease
 * renewal finds in the store within a third of the lease.
 */
export class PostgresHintListener {
  private readonly options: HintListenerOptions;
  private client: pg.Client | null = null;
  private timer: unknown = null;
  private closed = false;

  private constructor(options: HintListenerOptions) {
    this.options = options;
  }

  static async start(options: HintListenerOptions): Promise<PostgresHintListener> {
    const listener = new PostgresHintListener(options);
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
      application_name: "gadfly-hints",
    });
    client.on("notification", (message) => {
      if (message.channel !== HINT_CHANNEL || message.payload === undefined) return;
      if (message.payload.length > 0 && message.payload.length <= 200) {
        this.options.onHint(message.payload);
      }
    });
    const dropped = (error?: unknown) => {
      if (this.client !== client) return;
      this.client = null;
      if (error !== undefined) this.options.onError?.(error);
      void client.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    // Attached before connecting: an error at any moment of the connection's life is heard.
    client.on("error", dropped);
    client.on("end", () => dropped());
    try {
      await client.connect();
      await client.query(`LISTEN ${HINT_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
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
