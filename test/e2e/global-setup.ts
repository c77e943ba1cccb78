import { execa } from 'execa';
import { E2E_LABS, labProcessEnv, labScript } from './lab.js';

/**
 * Starts the e2e labs once for the e2e project, one per worker (building the binaries first if the
 * cache is cold). The labs are a precondition: when one cannot start, this throws and the whole run
 * fails, loudly, with the components' log tails that `lab up` prints. They are started one after
 * the other so that two `up`s never race for the same free port. Under CI they are stopped at the
 * end; on a workstation they stay up, so the next run starts in seconds (`LAB_DIR=… npm run lab -- down`).
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const slots = Array.from({ length: E2E_LABS }, (_, i) => i + 1);
  for (const slot of slots) {
    const result = await execa('bash', [labScript, 'up'], { reject: false, all: true, env: labProcessEnv(slot) });
    if (result.exitCode !== 0) {
      throw new Error(`e2e lab ${slot} did not start (npm run lab -- up):\n${result.all}`);
    }
  }
  if (!process.env.CI) return undefined;
  return async () => {
    for (const slot of slots) {
      await execa('bash', [labScript, 'down'], { reject: false, env: labProcessEnv(slot) });
    }
  };
}
