import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../scripts/lab/seed.js';
import { generateCluster } from '../../../scripts/fidelity/generate-cluster.js';

// The fidelity harness's clusters: the same seed gives the same cluster, and every cluster is one the lab
// can place before the drain (or the seed is wasted: it is not compared).

const SEEDS = Array.from({ length: 300 }, (_, i) => i + 1);
const objectsOf = (seed: number) => generateCluster(seed).steps.flat(2);
const ofKind = (objects: readonly KubeObject[], kind: string) => objects.filter((o) => o.kind === kind);
const milli = (cpu: string) => (cpu.endsWith('m') ? Number(cpu.slice(0, -1)) : Number(cpu) * 1000);

interface Template {
  metadata: { labels: Record<string, string> };
  spec: {
    nodeSelector?: Record<string, string>;
    resourceClaims?: unknown[];
    containers: Array<{ resources: { requests: { cpu: string } } }>;
  };
}
const workloads = (objects: readonly KubeObject[]) =>
  objects
    .filter((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet')
    .map((o) => {
      const spec = o.spec as { replicas: number; template: Template; volumeClaimTemplates?: unknown[] };
      return { object: o, replicas: spec.replicas, template: spec.template };
    });

describe('generateCluster', () => {
  it('gives the same objects for the same seed, and other clusters for other seeds', () => {
    expect(generateCluster(42)).toEqual(generateCluster(42));
    const shapes = new Set(SEEDS.slice(0, 20).map((seed) => JSON.stringify(generateCluster(seed).steps)));
    expect(shapes.size).toBe(20);
  });

  it('makes small clusters: 4–6 nodes first, then 1–30 workload pods', () => {
    for (const seed of SEEDS) {
      const cluster = generateCluster(seed);
      const [nodes, rest] = cluster.steps;
      expect(nodes!.flat().every((o) => o.kind === 'Node')).toBe(true);
      expect(nodes!.flat().length).toBeGreaterThanOrEqual(4);
      expect(nodes!.flat().length).toBeLessThanOrEqual(6);
      const pods = workloads(rest!.flat()).reduce((sum, w) => sum + w.replicas, 0);
      expect(pods, `seed ${seed}`).toBeGreaterThanOrEqual(1);
      expect(pods, `seed ${seed}`).toBeLessThanOrEqual(30);
    }
  });

  it('keeps each pool placeable: requests within its room, GPU claims within the GPUs published', () => {
    for (const seed of SEEDS) {
      const cluster = generateCluster(seed);
      const objects = objectsOf(seed);
      for (const pool of ['general', 'gpu']) {
        const room = cluster.nodes.filter((n) => n.pool === pool).reduce((sum, n) => sum + n.milliCpu, 0);
        const requested = workloads(objects)
          .filter((w) => (w.template.spec.nodeSelector?.['node.example.com/pool'] ?? 'general') === pool)
          .reduce((sum, w) => sum + w.replicas * milli(w.template.spec.containers[0]!.resources.requests.cpu), 0);
        expect(requested, `seed ${seed} pool ${pool}`).toBeLessThanOrEqual(room * 0.8);
      }
      const gpus = ofKind(objects, 'ResourceSlice').reduce(
        (sum, s) => sum + (s.spec as { devices: unknown[] }).devices.length,
        0,
      );
      const claims = workloads(objects)
        .filter((w) => w.template.spec.resourceClaims)
        .reduce((sum, w) => sum + w.replicas, 0);
      expect(claims, `seed ${seed}`).toBeLessThanOrEqual(gpus);
    }
  });

  it("pre-binds one PersistentVolume to each StatefulSet replica's claim, local ones on distinct nodes", () => {
    let local = 0;
    let zonal = 0;
    for (const seed of SEEDS) {
      const objects = objectsOf(seed);
      const volumes = ofKind(objects, 'PersistentVolume').map(
        (pv) =>
          pv.spec as {
            claimRef: { name: string };
            local?: unknown;
            nodeAffinity?: {
              required: { nodeSelectorTerms: Array<{ matchExpressions: Array<{ values: string[] }> }> };
            };
          },
      );
      for (const w of workloads(objects).filter((w) => w.object.kind === 'StatefulSet')) {
        const name = w.object.metadata.name;
        const mine = volumes.filter((v) => v.claimRef.name.startsWith(`data-${name}-`));
        if (!(w.object.spec as { volumeClaimTemplates?: unknown[] }).volumeClaimTemplates) {
          expect(mine).toEqual([]);
          continue;
        }
        expect(mine.map((v) => v.claimRef.name).sort()).toEqual(
          Array.from({ length: w.replicas }, (_, r) => `data-${name}-${r}`).sort(),
        );
        const pinned = mine.flatMap(
          (v) => v.nodeAffinity?.required.nodeSelectorTerms[0]!.matchExpressions[0]!.values ?? [],
        );
        expect(new Set(pinned).size, `seed ${seed} ${name}`).toBe(pinned.length);
        if (mine.some((v) => v.local)) local++;
        else zonal++;
      }
    }
    // The seeds cover both kinds of volume.
    expect(local).toBeGreaterThan(20);
    expect(zonal).toBeGreaterThan(20);
  });

  it('covers what the harness is for: spread, anti-affinity, budgets, priorities, GPU claims', () => {
    const all = SEEDS.flatMap((seed) => generateCluster(seed).workloads).join('\n');
    for (const trait of [
      'zone spread',
      'host spread',
      'anti-affinity',
      'budget',
      'priority high',
      'gpu claim',
      'zone affinity',
    ]) {
      expect(all).toContain(trait);
    }
  });

  it("draws eviction webhooks last, served where the harness says; an operator's marks its target's pods only", () => {
    const server = { url: 'https://127.0.0.1:8443', caBundle: 'Q0E=' };
    const modes = new Set<string>();
    for (const seed of SEEDS) {
      const withServer = generateCluster(seed, server);
      const hooks = withServer.steps
        .flat(2)
        .filter((o) => o.kind.endsWith('WebhookConfiguration'))
        .flatMap((o) => (o as unknown as { webhooks: Array<{ name: string; clientConfig: object }> }).webhooks);
      for (const h of hooks) {
        expect(h.clientConfig).toMatchObject({
          caBundle: 'Q0E=',
          url: expect.stringMatching(/^https:\/\/127\.0\.0\.1:8443\//),
        });
        modes.add(new URL((h.clientConfig as { url: string }).url).pathname.split('/')[2]!);
      }
      for (const w of workloads(withServer.steps.flat(2))) {
        const selector = (w.object.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels;
        expect(selector, `seed ${seed}`).toEqual({ app: w.object.metadata.name });
        const kafka = w.template.metadata.labels['strimzi.io/name'];
        if (kafka) expect(hooks.map((h) => h.name)).toContain('strimzi-drain-cleaner.strimzi.io');
      }
    }
    expect([...modes].sort()).toEqual(['deny', 'kubevirt', 'strimzi', 'wait']);
  });
});
