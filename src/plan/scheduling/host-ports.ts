import type { V1Container, V1ContainerPort, V1Pod } from '@kubernetes/client-node';

/**
 * A pod's host ports and the ports in use on a node (the framework's HostPortInfo, pkg/scheduler/framework/types.go,
 * v1.37): kept on each NodeInfo, read by NodePorts.
 */

/** The unspecified address: a host port on it holds the port on every IP of the node. */
const ALL_IPS = '0.0.0.0';

export interface HostPort {
  readonly ip: string;
  readonly protocol: string;
  readonly port: number;
}

/** `GetHostPorts`: hostPort > 0 of regular containers and of sidecars (restartable init containers). */
export function hostPortsOf(pod: V1Pod): HostPort[] {
  const out: HostPort[] = [];
  const collect = (containers: readonly V1Container[] | undefined, sidecarsOnly: boolean) => {
    for (const c of containers ?? []) {
      if (sidecarsOnly && c.restartPolicy !== 'Always') continue;
      for (const p of c.ports ?? []) if ((p.hostPort ?? 0) > 0) out.push(toHostPort(p));
    }
  };
  collect(pod.spec?.initContainers, true);
  collect(pod.spec?.containers, false);
  return out;
}

function toHostPort(p: V1ContainerPort): HostPort {
  return { ip: p.hostIP || ALL_IPS, protocol: p.protocol || 'TCP', port: p.hostPort! };
}

/** The ports in use on a node (`HostPortInfo`), terminating pods included until they are gone. */
export class UsedPorts {
  private readonly byIp = new Set<string>();
  private readonly anyIp = new Set<string>();

  copy(): UsedPorts {
    const out = new UsedPorts();
    for (const key of this.byIp) out.byIp.add(key);
    for (const key of this.anyIp) out.anyIp.add(key);
    return out;
  }

  add(port: HostPort): void {
    this.byIp.add(`${port.ip}|${port.protocol}|${port.port}`);
    this.anyIp.add(`${port.protocol}|${port.port}`);
  }

  /** A pod leaves the node: its ports are free again. */
  remove(port: HostPort): void {
    this.byIp.delete(`${port.ip}|${port.protocol}|${port.port}`);
    const protocolPort = `${port.protocol}|${port.port}`;
    if (![...this.byIp].some((key) => key.endsWith(`|${protocolPort}`))) this.anyIp.delete(protocolPort);
  }

  /** `HostPortInfo.CheckConflict`: 0.0.0.0 clashes with the port on any IP; an IP clashes with itself and 0.0.0.0. */
  conflicts(port: HostPort): boolean {
    const protocolPort = `${port.protocol}|${port.port}`;
    if (port.ip === ALL_IPS) return this.anyIp.has(protocolPort);
    return this.byIp.has(`${ALL_IPS}|${protocolPort}`) || this.byIp.has(`${port.ip}|${protocolPort}`);
  }
}
