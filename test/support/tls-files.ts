import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TlsFiles {
  /** The CA that signed the server certificate: what a client must trust (NODE_EXTRA_CA_CERTS). */
  caFile: string;
  certFile: string;
  keyFile: string;
}

export function opensslAvailable(): boolean {
  return spawnSync('openssl', ['version'], { stdio: 'ignore' }).error === undefined;
}

/** A throwaway CA and a server certificate for 127.0.0.1, made with openssl for this test run only. */
export function makeTlsFiles(): TlsFiles {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-tls-'));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('ca.key'), '-out', at('ca.crt'), '-days', '2', '-subj', '/CN=mcp-devtools test CA');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('server.key'), '-out', at('server.csr'), '-subj', '/CN=127.0.0.1');
  writeFileSync(at('san.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  openssl(
    'x509',
    '-req',
    '-in',
    at('server.csr'),
    '-CA',
    at('ca.crt'),
    '-CAkey',
    at('ca.key'),
    '-CAcreateserial',
    '-out',
    at('server.crt'),
    '-days',
    '2',
    '-extfile',
    at('san.cnf'),
  );
  return { caFile: at('ca.crt'), certFile: at('server.crt'), keyFile: at('server.key') };
}
