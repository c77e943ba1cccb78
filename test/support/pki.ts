import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A throwaway PKI made with openssl: a CA and leaf certificates it signs (unit tests; the e2e lab has its own CA). */
export interface Pki {
  readonly dir: string;
  readonly caFile: string;
  /** A leaf signed by the CA: `name.crt` / `name.key`, with the given subject alternative names. */
  leaf(name: string, options: { cn: string; san?: string; clientAuth?: boolean }): { cert: string; key: string };
}

export function makePki(dir: string): Pki {
  const caFile = path.join(dir, 'ca.crt');
  const caKey = path.join(dir, 'ca.key');
  openssl([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-sha256',
    '-days',
    '1',
    '-subj',
    '/CN=maint-test-ca',
    '-keyout',
    caKey,
    '-out',
    caFile,
  ]);
  return { dir, caFile, leaf: (name, options) => signLeaf({ caFile, caKey }, dir, name, options) };
}

/** A key and a certificate for `cn` signed by the CA, written to `dir` as NAME.key / NAME.crt. */
export function signLeaf(
  ca: { caFile: string; caKey: string },
  dir: string,
  name: string,
  { cn, san, clientAuth }: { cn: string; san?: string; clientAuth?: boolean },
): { cert: string; key: string } {
  const { caFile, caKey } = ca;
  const key = path.join(dir, `${name}.key`);
  const csr = path.join(dir, `${name}.csr`);
  const cert = path.join(dir, `${name}.crt`);
  const ext = path.join(dir, `${name}.ext`);
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-subj', `/CN=${cn}`, '-keyout', key, '-out', csr]);
  const lines = [`extendedKeyUsage=${clientAuth ? 'clientAuth' : 'serverAuth'}`];
  if (san) lines.push(`subjectAltName=${san}`);
  writeFileSync(ext, `${lines.join('\n')}\n`);
  openssl([
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    caFile,
    '-CAkey',
    caKey,
    '-CAcreateserial',
    '-CAserial',
    path.join(dir, 'ca.srl'),
    '-sha256',
    '-days',
    '1',
    '-extfile',
    ext,
    '-out',
    cert,
  ]);
  return { cert, key };
}

/** Whether a process is still running (signal 0 checks without signalling). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function base64Of(file: string): string {
  return readFileSync(file).toString('base64');
}

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: 'ignore' });
}
