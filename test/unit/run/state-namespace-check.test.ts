import type { V1Lease } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { earlierRunsNote, missingStateNamespace } from '../../../src/run/state-namespace-check.js';

describe('the namespace of the runs state', () => {
  it.each([
    { exists: true, problem: null },
    // The user may not list namespaces: the run goes on, and its access checks say what is missing.
    { exists: undefined, problem: null },
    {
      exists: false,
      problem:
        'namespace "kubectl-maint" for the runs\' state does not exist: create it (kubectl create namespace kubectl-maint; kubectl maint rbac run prints it with the roles), or name another with --state-namespace; nothing was changed',
    },
  ])('exists: $exists', async ({ exists, problem }) => {
    expect(await missingStateNamespace({ namespaceExists: async () => exists }, 'kubectl-maint')).toBe(problem);
  });

  it('names the runs kept in kube-system when the default namespace is looked at, and only then', async () => {
    const asked: string[] = [];
    const leases = (count: number) => ({
      listLeases: async (namespace: string, selector: string) => {
        asked.push(`${namespace} ${selector}`);
        return Array.from({ length: count }, () => ({}) as V1Lease);
      },
    });
    expect(await earlierRunsNote(leases(2), 'kubectl-maint')).toBe(
      '2 runs in namespace "kube-system": see them with --state-namespace kube-system',
    );
    expect(asked).toEqual(['kube-system maint.kubectl.io/run']);
    expect(await earlierRunsNote(leases(0), 'kubectl-maint')).toBeNull();
    expect(await earlierRunsNote(leases(1), 'ops-state')).toBeNull();
    const forbidden = { listLeases: async () => Promise.reject(new Error('forbidden')) };
    expect(await earlierRunsNote(forbidden, 'kubectl-maint')).toBeNull();
  });
});
