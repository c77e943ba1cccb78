import { execa } from 'execa';
import { labScript } from './lab.js';

/**
 * Starts the lab once for the e2e project (building its binaries if the cache is cold). The lab is a
 * precondition: when it cannot start, this throws and the whole run fails, loudly, with the
 * components' log tails that `lab up` prints.
 */
export default async function setup(): Promise<void> {
  const result = await execa('bash', [labScript, 'up'], { reject: false, all: true });
  if (result.exitCode !== 0) {
    throw new Error(`the lab control plane did not start (npm run lab -- up):\n${result.all}`);
  }
}
