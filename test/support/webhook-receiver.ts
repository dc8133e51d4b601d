import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ApprovalEvent } from '../../plugins/policy/approvals/notify/approval-event.js';
import { REPO_ROOT } from './paths.js';

/** The receiver's verification function of docs/console.md, as published. */
export type VerifyApprovalEvent = (rawBody: string, headers: IncomingHttpHeaders, secret: string, now?: number) => ApprovalEvent | null;

/** One POST as the receiver got it. */
export interface ReceivedPost {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** What the receiver answered. */
  status: number;
  /** The docs' verifier's verdict on it: the event, null for a repeat, or why it was refused. */
  verified: ApprovalEvent | null | { refused: string };
}

/**
 * A webhook receiver on loopback, as an operator would run one: it checks every POST with the verification
 * snippet of docs/console.md (the code itself, loaded from the document) and answers as the test planned
 * (200 by default; a failing status or a slow answer for the next ones).
 */
export class WebhookReceiver {
  readonly posts: ReceivedPost[] = [];
  private readonly plan: Array<{ status: number; delayMs?: number; retryAfter?: string }> = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly verify: VerifyApprovalEvent,
    /** Checks the posts the receiver answers with a failure: those it never accepted, so may see again. */
    private readonly probe: VerifyApprovalEvent,
    private readonly secret: string,
  ) {}

  /** `path` stands for the secret part of a real receiver's URL (Slack's `/services/T.../B.../...`). */
  static async start(secret: string, path = '/services/T0001/B0001/receiver-path-canary'): Promise<WebhookReceiver> {
    const [verify, probe] = [await docsVerifier(), await docsVerifier()];
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, verify, probe, secret);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const step = receiver.plan.shift() ?? { status: 200 };
        let verified: ReceivedPost['verified'];
        try {
          verified = (step.status < 300 ? receiver.verify : receiver.probe)(body, request.headers, receiver.secret);
        } catch (error) {
          verified = { refused: (error as Error).message };
        }
        receiver.posts.push({ path: request.url ?? '', headers: request.headers, body, status: step.status, verified });
        const answer = (): void => void response.writeHead(step.status, step.retryAfter ? { 'retry-after': step.retryAfter } : {}).end('ok');
        if (step.delayMs === undefined) answer();
        else setTimeout(answer, step.delayMs);
      });
    });
    return receiver;
  }

  /** The MCP_EGRESS_ALLOW entry a server needs to reach this receiver: the egress guard refuses loopback otherwise. */
  get egressAllow(): string {
    return new URL(this.url).host;
  }

  /** The next `count` POSTs are answered `status` (after `delayMs`, if given). */
  answerNext(count: number, status: number, options: { delayMs?: number; retryAfter?: string } = {}): void {
    for (let i = 0; i < count; i++) this.plan.push({ status, ...options });
  }

  /** The events accepted (signature good, not a repeat), in the order received. */
  get events(): ApprovalEvent[] {
    return this.posts.flatMap((p) => (p.verified !== null && !('refused' in p.verified) && p.status < 300 ? [p.verified] : []));
  }

  async waitFor(what: string, check: (r: WebhookReceiver) => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check(this)) {
      if (Date.now() > deadline)
        throw new Error(`timed out waiting until ${what}; received ${JSON.stringify(this.posts.map((p) => [p.status, p.body.slice(0, 120)]))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The fenced `js` block of docs/console.md's Notifications section, written to a module and imported. */
export async function docsVerifier(): Promise<VerifyApprovalEvent> {
  const doc = readFileSync(join(REPO_ROOT, 'docs/console.md'), 'utf8');
  const at = doc.indexOf('## Notifications');
  const match = /```js\n([\s\S]*?)```/.exec(doc.slice(at));
  if (at < 0 || match === null) throw new Error('docs/console.md has no js block under "## Notifications"');
  const file = join(mkdtempSync(join(tmpdir(), 'mcp-devtools-receiver-')), 'receiver.mjs');
  writeFileSync(file, match[1]!);
  const module = (await import(pathToFileURL(file).href)) as { verifyApprovalEvent?: VerifyApprovalEvent };
  if (typeof module.verifyApprovalEvent !== 'function') throw new Error('the docs snippet does not export verifyApprovalEvent');
  return module.verifyApprovalEvent;
}
