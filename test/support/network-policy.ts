/**
 * Kubernetes NetworkPolicy semantics (networking.k8s.io/v1), enough to ask of a set of policies whether a
 * connection to or from a pod is allowed: a pod selected by a policy of a direction is isolated in that
 * direction, and then a connection is allowed only when a rule of one of those policies matches both its peer
 * and its port. Written from the API reference so the manifests can be judged without a cluster.
 */

type Labels = Record<string, string>;

interface Selector {
  matchLabels?: Labels;
  matchExpressions?: Array<{ key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }>;
}

interface PolicyPeer {
  podSelector?: Selector;
  namespaceSelector?: Selector;
  ipBlock?: { cidr: string; except?: string[] };
}

interface PolicyPort {
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  port?: number | string;
  endPort?: number;
}

interface Rule {
  from?: PolicyPeer[];
  to?: PolicyPeer[];
  ports?: PolicyPort[];
}

export interface NetworkPolicy {
  metadata: { name: string; namespace?: string };
  spec: { podSelector: Selector; policyTypes?: Array<'Ingress' | 'Egress'>; ingress?: Rule[]; egress?: Rule[] };
}

/** The other end of a connection: a pod (with its namespace's labels) or an address outside the cluster. */
export type Peer = { pod: Labels; namespace: Labels; sameNamespace: boolean } | { ip: string };

export interface Connection {
  /** The pod the policies protect (in the policies' namespace). */
  pod: Labels;
  peer: Peer;
  protocol: 'TCP' | 'UDP';
  port: number;
  /** The port's name on the receiving pod's container, for policies that name ports. */
  portName?: string;
}

export function selects(selector: Selector, labels: Labels): boolean {
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const byExpression = (selector.matchExpressions ?? []).every((e) => {
    const has = e.key in labels;
    if (e.operator === 'Exists') return has;
    if (e.operator === 'DoesNotExist') return !has;
    const inValues = has && (e.values ?? []).includes(labels[e.key]!);
    return e.operator === 'In' ? inValues : !inValues;
  });
  return byLabel && byExpression;
}

function ipv4(ip: string): number | undefined {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return undefined;
  return ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0;
}

function inCidr(ip: string, cidr: string): boolean {
  const [base = '', bits = '32'] = cidr.split('/');
  const address = ipv4(ip);
  const network = ipv4(base);
  if (address === undefined || network === undefined) return false;
  const mask = Number(bits) === 0 ? 0 : (~0 << (32 - Number(bits))) >>> 0;
  return (address & mask) === (network & mask);
}

function peerMatches(peer: PolicyPeer, other: Peer): boolean {
  if (peer.ipBlock !== undefined) {
    return 'ip' in other && inCidr(other.ip, peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some((e) => inCidr(other.ip, e));
  }
  if ('ip' in other) return false;
  // A podSelector alone means pods of the policy's namespace; with a namespaceSelector, pods of those namespaces.
  const namespaceOk = peer.namespaceSelector === undefined ? other.sameNamespace : selects(peer.namespaceSelector, other.namespace);
  return namespaceOk && (peer.podSelector === undefined || selects(peer.podSelector, other.pod));
}

function portMatches(rulePort: PolicyPort, connection: Connection): boolean {
  if ((rulePort.protocol ?? 'TCP') !== connection.protocol) return false;
  if (rulePort.port === undefined) return true;
  if (typeof rulePort.port === 'string') return rulePort.port === connection.portName;
  return connection.port >= rulePort.port && connection.port <= (rulePort.endPort ?? rulePort.port);
}

function ruleAllows(rule: Rule, peers: PolicyPeer[] | undefined, connection: Connection): boolean {
  const peerOk = peers === undefined || peers.length === 0 || peers.some((p) => peerMatches(p, connection.peer));
  const portOk = rule.ports === undefined || rule.ports.length === 0 || rule.ports.some((p) => portMatches(p, connection));
  return peerOk && portOk;
}

function types(policy: NetworkPolicy): Array<'Ingress' | 'Egress'> {
  return policy.spec.policyTypes ?? (policy.spec.egress !== undefined ? ['Ingress', 'Egress'] : ['Ingress']);
}

/** Whether the policies let `connection.peer` open this connection to the pod. */
export function allowsIngress(policies: readonly NetworkPolicy[], connection: Connection): boolean {
  const applying = policies.filter((p) => types(p).includes('Ingress') && selects(p.spec.podSelector, connection.pod));
  if (applying.length === 0) return true;
  return applying.some((p) => (p.spec.ingress ?? []).some((rule) => ruleAllows(rule, rule.from, connection)));
}

/** Whether the policies let the pod open this connection to `connection.peer`. */
export function allowsEgress(policies: readonly NetworkPolicy[], connection: Connection): boolean {
  const applying = policies.filter((p) => types(p).includes('Egress') && selects(p.spec.podSelector, connection.pod));
  if (applying.length === 0) return true;
  return applying.some((p) => (p.spec.egress ?? []).some((rule) => ruleAllows(rule, rule.to, connection)));
}
