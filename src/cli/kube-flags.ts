import { Option, type Command } from 'commander';
import { DEFAULT_CHUNK_SIZE, DEFAULT_EXEC_TIMEOUT_MS } from '../kube/defaults.js';
import { parseCount, parseDurationMs } from './flag-values.js';

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
    // kubectl's pages spare etcd; a server that answers a consistent LIST from its watch cache is read
    // in one request unless pages are asked for (kube/cluster-cache.ts).
    new Option(
      '--chunk-size <n>',
      `list objects in pages of this many (default ${DEFAULT_CHUNK_SIZE}; unset, a consistent read from a 1.34+ server is one request); 0 = all at once`,
    ).argParser(parseCount),
  ];
  for (const option of options) command.addOption(option.helpGroup(GROUP));
  return command;
}
