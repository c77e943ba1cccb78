import type { KubeClient } from '../kube/client.js';
import { kubeConfigFlags, type KubeFlagValues } from './kube-flag-values.js';

// Apart from kube-flags.ts, which the short commands (cordon, uncordon) load too: their bundle then holds
// no path to the Kubernetes client (scripts/release/bundle.ts).

/**
 * Loads the kubeconfig as kubectl would with these flags and binds the API clients to it. The
 * Kubernetes client is imported here, when a command talks to the cluster, not at start-up: it takes
 * longer to load than the rest of the plugin (`version`, `--help`, completion and --snapshot plans
 * never load it).
 */
export async function connect(values: KubeFlagValues): Promise<KubeClient> {
  const [{ createKubeClient }, { loadKubeTarget }] = await Promise.all([
    import('../kube/client.js'),
    import('../kube/config.js'),
  ]);
  return createKubeClient(loadKubeTarget(kubeConfigFlags(values)));
}
