import { describe, expect, it } from 'vitest';
import { servesConsistentListsFromCache } from '../../../src/kube/server-version.js';

// A consistent read is one LIST only where the API server answers it from its watch cache: 1.34 on, where
// ConsistentListFromCache is GA. Elsewhere such a LIST may be a quorum read of etcd, so the streaming list.

describe('servesConsistentListsFromCache', () => {
  it('is true from 1.34 on, whatever the patch or the build suffix', () => {
    for (const version of ['v1.34.0', 'v1.34.4', 'v1.37.2', 'v1.40.1-eks-abcdef', '1.35.0']) {
      expect(servesConsistentListsFromCache(version), version).toBe(true);
    }
  });

  it('is false before 1.34, and where the version is not known or not a 1.x.y', () => {
    for (const version of ['v1.33.13', 'v1.31.0', 'v1.3.40', 'v2.0.0', 'garbage', '', undefined]) {
      expect(servesConsistentListsFromCache(version), String(version)).toBe(false);
    }
  });
});
