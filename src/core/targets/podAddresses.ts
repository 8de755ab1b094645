/** Host numbers a pod gets in its node's /24: .0 and .255 are the network and broadcast, the low ones go to the node's bridge. */
const FIRST_HOST = 10;
const LAST_HOST = 254;
const PODS_PER_NODE = LAST_HOST - FIRST_HOST + 1;

/**
 * The address of the `n`-th simulated pod (0-based), as a cluster with the common pod CIDR
 * 10.244.0.0/16 hands them out: each node a /24 (kube-controller-manager's default
 * `--node-cidr-mask-size`), pods at .10–.254 of one node's range, then the next node's. Past
 * 10.244.255.254 the /16s that follow in 10.0.0.0/8 take over (10.245.0.10 …, after 10.255 round
 * to 10.0). Deterministic, and never a network or broadcast address.
 */
export function simulatedPodIp(n: number): string {
  const node = Math.floor(n / PODS_PER_NODE);
  const host = FIRST_HOST + (n % PODS_PER_NODE);
  const second = (244 + Math.floor(node / 256)) % 256;
  return `10.${second}.${node % 256}.${host}`;
}
