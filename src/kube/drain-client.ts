import { CoreV1Api, KubeConfig, PolicyV1Api, Watch } from '@kubernetes/client-node';

/** The API clients the drain's writes and watches use, built once from one KubeConfig. */
export interface DrainClient {
  readonly kubeConfig: KubeConfig;
  readonly core: CoreV1Api;
  readonly policy: PolicyV1Api;
  readonly watch: Watch;
}

export function makeDrainClient(kubeConfig: KubeConfig): DrainClient {
  return {
    kubeConfig,
    core: kubeConfig.makeApiClient(CoreV1Api),
    policy: kubeConfig.makeApiClient(PolicyV1Api),
    watch: new Watch(kubeConfig),
  };
}

/**
 * Loads the kubeconfig the way client-node does by default (KUBECONFIG, ~/.kube/config, in-cluster).
 * The one place to swap for the shared builder in kube/config.ts (flags such as --context, --kubeconfig).
 */
export function loadDrainClient(): DrainClient {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromDefault();
  return makeDrainClient(kubeConfig);
}
