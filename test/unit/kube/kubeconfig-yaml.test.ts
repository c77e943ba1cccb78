import fc from 'fast-check';
import { dump, load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { loadKubeconfigYaml, setAsideBase64 } from '../../../src/kube/kubeconfig-yaml.js';

// loadKubeconfigYaml parses a kubeconfig with its long base64 values set aside: whatever the file, the
// document must be the one js-yaml gives for it.

const base64 = (bytes: number, seed = 1) =>
  Buffer.from(Array.from({ length: bytes }, (_, i) => (i * 31 + seed * 17) % 256)).toString('base64');

const KUBECONFIG = `apiVersion: v1
kind: Config
clusters:
- name: lab
  cluster:
    server: https://127.0.0.1:6443
    certificate-authority-data: ${base64(900)}
contexts:
- name: lab
  context: {cluster: lab, user: admin, namespace: demo}
current-context: lab
users:
- name: admin
  user:
    client-certificate-data: ${base64(1100, 2)}
    client-key-data: ${base64(1600, 3)}
- name: other
  user:
    token: abc
`;

describe('loadKubeconfigYaml', () => {
  it('gives js-yaml’s document for a kubeconfig with embedded certificates and key, parsed without them', () => {
    expect(setAsideBase64(KUBECONFIG).setAside).toHaveLength(3);
    expect(setAsideBase64(KUBECONFIG).shortened.length).toBeLessThan(600);
    expect(loadKubeconfigYaml(KUBECONFIG)).toEqual(load(KUBECONFIG));
  });

  it('leaves to js-yaml what the shortcut could change', () => {
    const cases = [
      // Read as numbers by YAML, not as strings.
      `a-data: ${'7'.repeat(80)}\n`,
      `a-data: ${'1'.repeat(40)}e${'2'.repeat(40)}\n`,
      `a-data: 0x${'f'.repeat(70)}\n`,
      // A -data line inside a block scalar: part of a string, not a value of its own.
      `note: |\n  client-key-data: ${base64(100)}\n  more text\n`,
      `note: |\n  client-key-data: ${base64(100)}\n`,
      // The same value twice through an alias, and the placeholder's own words in the file.
      `first: &k\n  client-key-data: ${base64(100)}\nsecond: *k\n`,
      `x: kubectl-maint-set-aside-0\nclient-key-data: ${base64(100)}\n`,
      // A timestamp stays a Date, a value with a comment stays js-yaml's.
      `when: 2026-12-02T02:00:00Z\nclient-key-data: ${base64(100)}\n`,
      `client-key-data: ${base64(100)} # comment\n`,
      // CRLF line ends, and an empty value.
      `client-key-data: ${base64(100)}\r\nuser: a\r\n`,
      'client-key-data:\n',
    ];
    for (const text of cases) expect(loadKubeconfigYaml(text), text).toEqual(load(text));
    expect(setAsideBase64(cases[0]!).setAside).toEqual([]);
    expect(setAsideBase64(cases[6]!).setAside).toEqual([]);
  });

  it('throws the error js-yaml throws for the file as written', () => {
    const broken = `users:\n- name: a\n  user:\n    client-key-data: ${base64(100)}\n   bad: indent\n`;
    expect(() => load(broken)).toThrow();
    let expected = '';
    try {
      load(broken);
    } catch (err) {
      expected = (err as Error).message;
    }
    expect(() => loadKubeconfigYaml(broken)).toThrow(expected);
  });

  it('gives js-yaml’s document for any kubeconfig-like document dumped by js-yaml', () => {
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.integer({ min: 48, max: 400 }).map((n) => base64(n, n)),
      fc.stringMatching(/^[0-9]{64,80}$/),
    );
    const entry = fc.dictionary(
      fc.constantFrom('name', 'token', 'client-key-data', 'certificate-authority-data', 'x-data'),
      value,
    );
    const doc = fc.record({ clusters: fc.array(entry, { maxLength: 3 }), users: fc.array(entry, { maxLength: 3 }) });
    fc.assert(
      fc.property(doc, fc.boolean(), (d, flow) => {
        const text = dump(d, { lineWidth: -1, flowLevel: flow ? 2 : -1 });
        expect(loadKubeconfigYaml(text)).toEqual(load(text));
      }),
      { numRuns: 300 },
    );
  });
});
