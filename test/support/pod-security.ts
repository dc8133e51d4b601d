/**
 * The Pod Security Standards' "restricted" profile (Kubernetes 1.25 and later, which includes "baseline"), as
 * the admission controller checks a pod spec: each rule that fails is named, with the container it concerns.
 * Written from the published standard so the manifests can be judged without a cluster.
 */

interface SecurityContext {
  privileged?: boolean;
  allowPrivilegeEscalation?: boolean;
  runAsNonRoot?: boolean;
  runAsUser?: number;
  procMount?: string;
  seccompProfile?: { type?: string };
  appArmorProfile?: { type?: string };
  seLinuxOptions?: { type?: string; user?: string; role?: string };
  capabilities?: { add?: string[]; drop?: string[] };
  windowsOptions?: { hostProcess?: boolean };
}

interface Container {
  name: string;
  ports?: Array<{ hostPort?: number }>;
  securityContext?: SecurityContext;
}

export interface PodSpec {
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  securityContext?: SecurityContext & { sysctls?: Array<{ name: string }> };
  containers: Container[];
  initContainers?: Container[];
  ephemeralContainers?: Container[];
  volumes?: Array<Record<string, unknown> & { name: string }>;
}

const RESTRICTED_VOLUME_TYPES = new Set(['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret']);
const SAFE_SYSCTLS = new Set([
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
]);
const SELINUX_TYPES = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t']);

/** Every rule of the restricted profile this pod spec breaks; empty when it would be admitted. */
export function restrictedViolations(pod: PodSpec): string[] {
  const out: string[] = [];
  const podContext = pod.securityContext ?? {};
  const containers = [...pod.containers, ...(pod.initContainers ?? []), ...(pod.ephemeralContainers ?? [])];
  // Baseline.
  if (pod.hostNetwork || pod.hostPID || pod.hostIPC) out.push('host namespaces: hostNetwork, hostPID and hostIPC must be unset or false');
  if (podContext.windowsOptions?.hostProcess) out.push('hostProcess: must not be true');
  for (const volume of pod.volumes ?? []) {
    const type = Object.keys(volume).find((k) => k !== 'name');
    if (type === 'hostPath') out.push(`volume ${volume.name}: hostPath volumes are forbidden`);
    else if (type === undefined || !RESTRICTED_VOLUME_TYPES.has(type)) out.push(`volume ${volume.name}: type ${type ?? '(none)'} is not allowed`);
  }
  for (const sysctl of podContext.sysctls ?? []) if (!SAFE_SYSCTLS.has(sysctl.name)) out.push(`sysctl ${sysctl.name}: not in the safe set`);
  if (podContext.runAsUser === 0) out.push('pod: runAsUser must not be 0');
  if (podContext.seccompProfile?.type === 'Unconfined') out.push('pod: seccompProfile must not be Unconfined');
  for (const c of containers) {
    const sc = c.securityContext ?? {};
    const at = `container ${c.name}`;
    if (sc.privileged) out.push(`${at}: privileged must be false`);
    if (sc.windowsOptions?.hostProcess) out.push(`${at}: hostProcess must not be true`);
    if ((c.ports ?? []).some((p) => (p.hostPort ?? 0) !== 0)) out.push(`${at}: hostPort must be unset or 0`);
    if (sc.procMount !== undefined && sc.procMount !== 'Default') out.push(`${at}: procMount must be Default`);
    for (const context of [podContext, sc]) {
      if (context.appArmorProfile?.type === 'Unconfined') out.push(`${at}: appArmorProfile must not be Unconfined`);
      const selinux = context.seLinuxOptions;
      if (selinux && (!SELINUX_TYPES.has(selinux.type ?? '') || selinux.user !== undefined || selinux.role !== undefined))
        out.push(`${at}: seLinuxOptions may set only an allowed type`);
    }
    // Restricted.
    if (sc.allowPrivilegeEscalation !== false) out.push(`${at}: allowPrivilegeEscalation must be false`);
    const nonRoot = sc.runAsNonRoot ?? podContext.runAsNonRoot;
    if (nonRoot !== true) out.push(`${at}: runAsNonRoot must be true (on the pod or the container)`);
    if (sc.runAsUser === 0) out.push(`${at}: runAsUser must not be 0`);
    const seccomp = sc.seccompProfile?.type ?? podContext.seccompProfile?.type;
    if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost')
      out.push(`${at}: seccompProfile.type must be RuntimeDefault or Localhost (on the pod or the container)`);
    if (!(sc.capabilities?.drop ?? []).includes('ALL')) out.push(`${at}: capabilities must drop ALL`);
    for (const cap of sc.capabilities?.add ?? []) if (cap !== 'NET_BIND_SERVICE') out.push(`${at}: capability ${cap} may not be added`);
  }
  return out;
}
