// The examples are imported as JSON modules rather than read by path: tsc leaves the import as is, so
// dist/ resolves ../../examples/ from the package, and esbuild inlines the data into a one-file bundle.
import hello from '../../examples/hello.json' with { type: 'json' };
import helloBlocked from '../../examples/hello-blocked.json' with { type: 'json' };
import { snapshotFromDocuments } from './load-file.js';
import type { Snapshot } from './types.js';

/**
 * Snapshots bundled with the plugin, taken from the lab's scenarios: `hello` (a Deployment spread over
 * two workers, honouring taints: draining one is slow but fine) and `hello-blocked` (the same spread
 * constraint ignoring taints: the cordoned node still counts as a domain, so the drain is blocked).
 */
const EMBEDDED: Readonly<Record<string, unknown>> = {
  hello,
  'hello-blocked': helloBlocked,
};

export type EmbeddedSnapshotName = 'hello' | 'hello-blocked';

export const EMBEDDED_SNAPSHOT_NAMES = Object.keys(EMBEDDED) as EmbeddedSnapshotName[];

export function loadEmbeddedSnapshot(name: EmbeddedSnapshotName): Snapshot {
  return snapshotFromDocuments([EMBEDDED[name]], { type: 'embedded', name }, `embedded snapshot "${name}"`);
}
