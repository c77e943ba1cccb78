import type { WorkloadOutage } from './types.js';
import { plural } from '../wording.js';

/** An outage (outages.ts) in words: the plan's reasons and the views' headline say it the same way. */

/** "StatefulSet demo/db: 1 of 1 replica down until k8s-node-1 returns (…)", one line per outage. */
export function outageLine(o: WorkloadOutage): string {
  return `${o.kind} ${o.namespace}/${o.name}: ${downText(o)} (no node takes the replacement of ${o.pods.join(', ')}: ${o.message})`;
}

/** "1 of 1 replica down until k8s-node-1 returns", "2 of 3 replicas down for good…", "up to 2 of 3…". */
export function downText(o: WorkloadOutage): string {
  const count = `${o.unknown ? 'up to ' : ''}${o.pods.length} of ${plural(o.replicas, 'replica')} down`;
  return o.until === 'node-returns'
    ? `${count} until ${o.returnsOn.join(', ')} ${o.returnsOn.length === 1 ? 'returns' : 'return'}`
    : `${count} for good: no node takes ${o.pods.length === 1 ? 'it' : 'them'}, not even once the drained nodes return`;
}
