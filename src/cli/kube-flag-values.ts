import type { KubeConfigFlags } from '../kube/config.js';
import type { KubeRest } from '../kube/rest.js';
import { CliError, ExitCode } from './exit-codes.js';

// The values of kubectl's connection flags and what the commands make of them, apart from their commander
// definitions (kube-flags.ts): `cordon` and `uncordon` given a plain command line run without commander
// (plain-cordon.ts), and come here too.

/** What commander parses from the kubectl-style connection flags. */
export interface KubeFlagValues {
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly cluster?: string;
  readonly user?: string;
  /** Milliseconds (parsed by parseDurationMs). */
  readonly requestTimeout?: number;
  readonly insecureSkipTlsVerify?: boolean;
  readonly chunkSize?: number;
  readonly server?: string;
  readonly token?: string;
  readonly as?: string;
  readonly asGroup?: readonly string[];
  readonly asUid?: string;
  readonly certificateAuthority?: string;
  readonly clientCertificate?: string;
  readonly clientKey?: string;
  readonly tlsServerName?: string;
}

export function kubeConfigFlags(values: KubeFlagValues): KubeConfigFlags {
  return {
    kubeconfig: values.kubeconfig,
    context: values.context,
    cluster: values.cluster,
    user: values.user,
    requestTimeoutMs: values.requestTimeout ?? 0,
    insecureSkipTlsVerify: values.insecureSkipTlsVerify === true,
    server: values.server,
    token: values.token,
    as: values.as,
    asGroups: values.asGroup,
    asUid: values.asUid,
    certificateAuthority: values.certificateAuthority,
    clientCertificate: values.clientCertificate,
    clientKey: values.clientKey,
    tlsServerName: values.tlsServerName,
  };
}

/**
 * Loads the kubeconfig as `connect` (kube-connect.ts) does, for plain requests without the Kubernetes client (kube/rest.ts):
 * the short commands (`cordon`, `uncordon`, completion's node names), whose start-up is mostly loading it.
 */
export async function connectRest(values: KubeFlagValues): Promise<KubeRest> {
  // One import, one chunk of the bundle: kube/rest.ts brings the kubeconfig reader with it.
  const { connectRest: connect } = await import('../kube/rest.js');
  return connect(kubeConfigFlags(values));
}

/** Errors from below that already carry a one-line message; known by name so that start-up loads neither. */
const ONE_LINE_ERRORS = new Set(['KubeError', 'SnapshotLoadError']);

/**
 * The CLI boundary for failures from below: the cluster (KubeError) and snapshot files already carry a
 * one-line message; here they get their exit code. Anything else is passed through for main() to report.
 */
export function asCliError(err: unknown): unknown {
  if (err instanceof Error && ONE_LINE_ERRORS.has(err.name)) return new CliError(err.message, ExitCode.Error);
  return err;
}
