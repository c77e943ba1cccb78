import { Option, type Command } from 'commander';
import type { KubeConfigFlags } from '../kube/config.js';
import type { KubeRest } from '../kube/rest.js';
import { DEFAULT_CHUNK_SIZE, DEFAULT_EXEC_TIMEOUT_MS } from '../kube/defaults.js';
import { CliError, ExitCode } from './exit-codes.js';
import { parseCount, parseDurationMs } from './flag-values.js';

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

const GROUP = 'Cluster connection (as in kubectl):';

/**
 * Adds kubectl's global flags that choose the cluster and credentials (cli-runtime's ConfigFlags), with
 * kubectl's meaning and precedence over the kubeconfig (kube/config.ts). kubectl does not parse them for a
 * plugin, so each command that talks to the API takes them.
 */
export function addKubeFlags(command: Command): Command {
  const options = [
    new Option('--kubeconfig <file>', 'path to the kubeconfig file (replaces KUBECONFIG)'),
    new Option('--context <name>', 'the kubeconfig context to use'),
    new Option('--cluster <name>', "the kubeconfig cluster to use (overrides the context's)"),
    new Option('--user <name>', "the kubeconfig user to use (overrides the context's)"),
    new Option('-s, --server <address>', 'the address and port of the Kubernetes API server'),
    new Option('--token <token>', 'bearer token for authentication to the API server'),
    new Option('--as <user>', 'username to impersonate for the operation (a user or a service account)'),
    new Option('--as-group <group>', 'group to impersonate for the operation; repeat for several groups').argParser(
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    ),
    new Option('--as-uid <uid>', 'UID to impersonate for the operation'),
    new Option('--certificate-authority <file>', 'path to a cert file for the certificate authority'),
    new Option('--client-certificate <file>', 'path to a client certificate file for TLS'),
    new Option('--client-key <file>', 'path to a client key file for TLS'),
    new Option(
      '--tls-server-name <name>',
      'server name to use for server certificate validation (default: the host used to contact the server)',
    ),
    new Option(
      '--request-timeout <duration>',
      'give up on a request after this long, connect and TLS handshake included (e.g. 30s, 2m); 0 = never. ' +
        `Also bounds an exec credential plugin (default bound: ${DEFAULT_EXEC_TIMEOUT_MS / 1000}s)`,
    )
      .argParser(parseDurationMs)
      .default(0, '0'),
    new Option(
      '--insecure-skip-tls-verify',
      "do not check the server's certificate (insecure; the connection can be intercepted)",
    ),
    new Option('--chunk-size <n>', 'list objects in pages of this many; 0 = all at once')
      .argParser(parseCount)
      .default(DEFAULT_CHUNK_SIZE),
  ];
  for (const option of options) command.addOption(option.helpGroup(GROUP));
  return command;
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
