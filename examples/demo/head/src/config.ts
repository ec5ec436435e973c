export interface Config {
  port: number;
  /** The shared secret PayHook signs its webhooks with. */
  webhookSecret: string;
}

export function loadConfig(env: NodeJS.ProcessEnv): Config {
  return {
    port: Number(env.PORT ?? 3000),
    webhookSecret: env.PAYHOOK_WEBHOOK_SECRET ?? "",
  };
}
