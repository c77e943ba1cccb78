import { spawn } from 'node:child_process';
import { formatMs } from './connection-errors.js';
import { DEFAULT_EXEC_TIMEOUT_MS } from './defaults.js';
import { KubeError, firstLineOf } from './errors.js';

/** A kubeconfig user's `exec` stanza (client.authentication.k8s.io), the fields kubectl uses. */
export interface ExecConfig {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: ReadonlyArray<{ readonly name: string; readonly value: string }>;
  readonly apiVersion: string;
  readonly interactiveMode: 'Never' | 'IfAvailable' | 'Always';
  readonly provideClusterInfo: boolean;
}

/** What the plugin returned: a token and/or a client certificate, and when it expires. */
export interface ExecCredential {
  readonly token?: string;
  readonly clientCertificateData?: string;
  readonly clientKeyData?: string;
  /** Epoch ms; undefined = valid for the life of the process. */
  readonly expiresAt?: number;
}

export interface ExecRun {
  readonly user: string;
  /** --request-timeout in ms; 0 = use DEFAULT_EXEC_TIMEOUT_MS. */
  readonly requestTimeoutMs: number;
  /** The cluster as the plugin may ask for it (provideClusterInfo). */
  readonly cluster: { readonly server: string; readonly tlsServerName?: string; readonly insecure: boolean };
  /** Whether standard input is a terminal the plugin may use for a login prompt. */
  readonly stdinIsTerminal: boolean;
}

/**
 * Runs an exec credential plugin as client-go does (plugin/pkg/client/auth/exec): KUBERNETES_EXEC_INFO in
 * its environment, stdin only when interactive, an ExecCredential of the configured apiVersion on stdout.
 * Unlike client-go it is bounded: after --request-timeout (or DEFAULT_EXEC_TIMEOUT_MS) the plugin is
 * killed and the error says so, so a plugin that hangs cannot hang the drain.
 */
export function runExecPlugin(exec: ExecConfig, run: ExecRun): Promise<ExecCredential> {
  const interactive = exec.interactiveMode !== 'Never' && run.stdinIsTerminal;
  if (exec.interactiveMode === 'Always' && !run.stdinIsTerminal) {
    return Promise.reject(
      execError(run, exec, 'exec plugin cannot support interactive mode: standard input is not a terminal'),
    );
  }
  const info = {
    kind: 'ExecCredential',
    apiVersion: exec.apiVersion,
    spec: {
      interactive,
      ...(exec.provideClusterInfo
        ? {
            cluster: {
              server: run.cluster.server,
              ...(run.cluster.tlsServerName ? { 'tls-server-name': run.cluster.tlsServerName } : {}),
              'insecure-skip-tls-verify': run.cluster.insecure,
            },
          }
        : {}),
    },
  };
  const env: NodeJS.ProcessEnv = { ...process.env, KUBERNETES_EXEC_INFO: JSON.stringify(info) };
  for (const { name, value } of exec.env) env[name] = value;
  const limitMs = run.requestTimeoutMs > 0 ? run.requestTimeoutMs : DEFAULT_EXEC_TIMEOUT_MS;

  return new Promise<ExecCredential>((resolve, reject) => {
    const child = spawn(exec.command, [...exec.args], {
      env,
      // Interactive plugins talk to the user (a login prompt, a device code), as in kubectl.
      stdio: [interactive ? 'inherit' : 'ignore', 'pipe', interactive ? 'inherit' : 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      // The plugin's own children may hold its pipes open: stop listening rather than wait for them.
      child.stdout?.destroy();
      child.stderr?.destroy();
      const bound =
        run.requestTimeoutMs > 0
          ? `${formatMs(limitMs)} (--request-timeout)`
          : `${formatMs(limitMs)} (the default bound for credential plugins; --request-timeout sets it)`;
      reject(execError(run, exec, `did not finish within ${bound} and was stopped`));
    }, limitMs);
    child.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        err.code === 'ENOENT'
          ? new KubeError(
              'unauthorized',
              `cannot get credentials for user "${run.user}": command "${exec.command}" not found (check users[].exec in the kubeconfig)`,
              { cause: err },
            )
          : execError(run, exec, `exec: ${err.message}`),
      );
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) {
        const said = firstLineOf(stderr);
        return reject(
          execError(run, exec, said ? `${said} (exit code ${code})` : `the command failed with exit code ${code}`),
        );
      }
      try {
        resolve(parseExecCredential(stdout, exec.apiVersion));
      } catch (err) {
        reject(execError(run, exec, (err as Error).message));
      }
    });
  });
}

/** Checks the plugin's answer as client-go does, with client-go's messages. */
export function parseExecCredential(stdout: string, apiVersion: string): ExecCredential {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch (err) {
    throw new Error(`decoding stdout: ${(err as Error).message}`, { cause: err });
  }
  const obj = (parsed ?? {}) as { apiVersion?: unknown; status?: Record<string, unknown> | null };
  if (obj.apiVersion !== apiVersion) {
    throw new Error(
      `exec plugin is configured to use API version ${apiVersion}, plugin returned version ${String(obj.apiVersion ?? '')}`,
    );
  }
  const status = obj.status;
  if (!status || typeof status !== 'object') throw new Error("exec plugin didn't return a status field");
  const text = (key: string) => (typeof status[key] === 'string' && status[key] !== '' ? status[key] : undefined);
  const token = text('token');
  const clientCertificateData = text('clientCertificateData');
  const clientKeyData = text('clientKeyData');
  if (!token && !clientCertificateData && !clientKeyData) {
    throw new Error("exec plugin didn't return a token or cert/key pair");
  }
  if (!clientCertificateData !== !clientKeyData) {
    throw new Error('exec plugin returned only certificate or key, not both');
  }
  const expiry = text('expirationTimestamp');
  const expiresAt = expiry === undefined ? undefined : Date.parse(expiry);
  return {
    ...(token ? { token } : {}),
    ...(clientCertificateData ? { clientCertificateData } : {}),
    ...(clientKeyData ? { clientKeyData } : {}),
    ...(expiresAt !== undefined && !Number.isNaN(expiresAt) ? { expiresAt } : {}),
  };
}

function execError(run: ExecRun, exec: ExecConfig, what: string): KubeError {
  return new KubeError('unauthorized', `cannot get credentials for user "${run.user}" from "${exec.command}": ${what}`);
}
