import { createInterface } from "node:readline/promises";
import { chooseProviders } from "./choose-providers.js";
import type { StarterProvider } from "./starter-providers.js";

/**
 * Asks on the terminal which providers to configure: numbers or names, comma-separated.
 * An empty or unknown answer is a usage error naming what is accepted.
 */
export async function askProviders(
  offered: readonly StarterProvider[],
  io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream },
): Promise<StarterProvider[]> {
  const menu = offered.map(
    (provider, index) => `  ${index + 1}) ${provider.id.padEnd(13)} ${provider.label}`,
  );
  io.output.write(
    `Which model providers should Gadfly use? Several models can agree.\n${menu.join("\n")}\n`,
  );
  const prompt = createInterface({ input: io.input, output: io.output, terminal: false });
  try {
    const answer = await prompt.question("Numbers or names, comma-separated (e.g. 1,3): ");
    return chooseProviders(answer, offered);
  } finally {
    prompt.close();
  }
}
