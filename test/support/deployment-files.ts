import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { BUNDLE_DIR, REPO_ROOT } from './paths.js';
import { listeningUrl } from './sdk-client.js';

/** One instruction of a Dockerfile, continuation lines joined. */
export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  /** The base image as written (`${NODE_IMAGE}`; resolvedFrom gives it with the build arguments' defaults). */
  from: string;
  name?: string;
  instructions: Instruction[];
}

/** The stages of the repository's Dockerfile, in order; the last is the image. */
export function dockerfileStages(): Stage[] {
  const text = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const stages: Stage[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(trimmed) ?? [];
    if (keyword.toUpperCase() === 'FROM') {
      const [, from = '', name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args) ?? [];
      stages.push({ from, ...(name === undefined ? {} : { name }), instructions: [] });
    } else if (stages.length > 0) {
      stages.at(-1)!.instructions.push({ keyword: keyword.toUpperCase(), args: args.replace(/\s+/g, ' ').trim() });
    }
  }
  return stages;
}

/**
 * The Dockerfile's global build arguments (the ARGs before the first FROM) with their defaults, each default's
 * `${VAR}` resolved from the ones before it, as BuildKit does.
 */
export function dockerfileArgs(): Record<string, string> {
  const text = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const args: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (/^FROM\s/i.test(trimmed)) break;
    const [, name, value = ''] = /^ARG\s+(\w+)(?:=(\S*))?$/i.exec(trimmed) ?? [];
    if (name !== undefined) args[name] = value.replace(/\$\{(\w+)\}/g, (_m, v: string) => args[v] ?? '');
  }
  return args;
}

/** A stage's base image as built without --build-arg: its `${VAR}` resolved from the global ARGs' defaults. */
export function resolvedFrom(stage: Stage, args = dockerfileArgs()): string {
  return stage.from.replace(/\$\{(\w+)\}/g, (_m, v: string) => args[v] ?? '');
}

/** The arguments of every instruction with this keyword in a stage. */
export function argsOf(stage: Stage, keyword: string): string[] {
  return stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);
}

/** The variables a stage's ENV instructions set (`ENV A=1 B=2`). */
export function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const args of argsOf(stage, 'ENV')) for (const [, key, value] of args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) env[key!] = value!.replace(/^"|"$/g, '');
  return env;
}

/**
 * A path of the image, as this repository has it: the image's WORKDIR is the repository root with the bundle at
 * dist/, which the tests build into build/dist (test/support/paths.ts). Other arguments are left as they are.
 */
export function pathHere(arg: string, workdir: string): string {
  if (!arg.startsWith(`${workdir}/`)) return arg;
  const inside = arg.slice(workdir.length + 1);
  return inside.startsWith('dist/') ? join(BUNDLE_DIR, inside.slice('dist/'.length)) : join(REPO_ROOT, inside);
}

/** An exec-form instruction's argv (`ENTRYPOINT ["node", "/app/dist/cli.js"]`). */
export function execForm(args: string): string[] {
  return JSON.parse(args.replace(/^CMD\s+/, '')) as string[];
}

/** `${VAR:-default}` and `${VAR:?message}` as Compose reads them, from `vars`. */
export function interpolate(value: string, vars: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_m, name: string, kind: string | undefined, rest: string) => {
    const given = vars[name];
    if (given !== undefined && given !== '') return given;
    if (kind === '?') throw new Error(`compose.yaml needs ${name}: ${rest}`);
    return kind === '-' ? rest : '';
  });
}

export function composeFile(): { services: Record<string, Record<string, unknown>> } {
  return parse(readFileSync(join(REPO_ROOT, 'compose.yaml'), 'utf8')) as { services: Record<string, Record<string, unknown>> };
}

/** The objects of a multi-document Kubernetes manifest in deploy/kubernetes. */
export function kubernetesObjects(file: string): Array<{ kind: string; metadata: { name: string }; spec: Record<string, unknown> }> {
  return parseAllDocuments(readFileSync(join(REPO_ROOT, 'deploy/kubernetes', file), 'utf8')).map(
    (d) => d.toJS() as { kind: string; metadata: { name: string }; spec: Record<string, unknown> },
  );
}

/** Every object of every manifest in deploy/kubernetes. */
export function allKubernetesObjects(): Array<{ kind: string; metadata: { name: string }; spec: Record<string, unknown> }> {
  return readdirSync(join(REPO_ROOT, 'deploy/kubernetes'))
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .flatMap((f) => kubernetesObjects(f));
}

/**
 * A container's environment as Kubernetes makes it: values from `secrets` (by key) for secretKeyRef, the pod's
 * name for a fieldRef to metadata.name, and `$(VAR)` in a value replaced by a variable defined before it (left as
 * is when there is none).
 */
export function containerEnv(
  env: ReadonlyArray<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { key: string }; fieldRef?: { fieldPath: string } } }>,
  secrets: Record<string, string>,
  podName = 'mcp-devtools-7d9f8c6b5-x2x4z',
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of env) {
    const from = e.valueFrom;
    const value =
      e.value !== undefined
        ? e.value.replace(/\$\((\w+)\)/g, (m, v: string) => out[v] ?? m)
        : from?.secretKeyRef !== undefined
          ? secrets[from.secretKeyRef.key]
          : from?.fieldRef?.fieldPath === 'metadata.name'
            ? podName
            : undefined;
    if (value !== undefined) out[e.name] = value;
  }
  return out;
}

export interface RunningCommand {
  url: string;
  stderr: string[];
  process: ChildProcess;
  stop(): Promise<number | null>;
}

/**
 * Runs a command line as an image would (argv, environment, working directory), outside any container, and
 * waits for the server's "listening on" line; rejects with its stderr if it exits first.
 */
export async function startCommand(argv: readonly string[], env: Record<string, string>, cwd: string): Promise<RunningCommand> {
  const child = spawn(argv[0] === 'node' ? process.execPath : argv[0]!, argv.slice(1), { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const stderr: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await listeningUrl(child, stderr, exited);
  return {
    url,
    stderr,
    process: child,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Runs a command to its end (a HEALTHCHECK), giving its exit code. */
export function runToEnd(argv: readonly string[], env: Record<string, string>): Promise<number | null> {
  const child = spawn(argv[0] === 'node' ? process.execPath : argv[0]!, argv.slice(1), { env, stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
}

/** A compose service, as far as the tests read it. */
export interface ComposeService {
  image?: string;
  entrypoint?: string[];
  command?: string[];
  environment?: Record<string, string>;
  secrets?: string[];
  volumes?: string[];
}

/**
 * A service's command line as compose hands it to the container: its entrypoint (the image's when it sets none),
 * then its command, `$$` (compose's escape for a `$` left to the container's shell) made `$`.
 */
export function composeArgv(service: ComposeService, imageEntrypoint: string[] = []): string[] {
  return [...(service.entrypoint ?? imageEntrypoint), ...(service.command ?? [])].map((a) => a.replaceAll('$$', '$'));
}

/**
 * A container's command line run on this machine: each path of `paths` (a mounted file, the secrets under
 * /run/secrets, the image's /app) replaced by where it is here, longest first.
 */
export function argvHere(argv: readonly string[], paths: Record<string, string>): string[] {
  const order = Object.keys(paths).sort((a, b) => b.length - a.length);
  return argv.map((a) => order.reduce((text, from) => text.replaceAll(from, paths[from]!), a));
}
