import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One file part of a multipart/form-data body, bytes as received. */
export interface ReceivedPart {
  field: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as it arrived (MockUpstream decodes bodies as UTF-8, which would lose binary uploads). */
  body: Buffer;
}

interface StoredDownload {
  name: string;
  bytes: Buffer;
  createdOn: string;
}

/**
 * Bitbucket Cloud's Downloads API on loopback, in its wire format: `GET .../downloads` pages of `values` with
 * `pagelen`, `page`, `size` and a `next` URL; `POST .../downloads` reads multipart/form-data `files` parts,
 * replaces a download of the same name silently, and answers 201 with no body; `GET .../downloads/{name}`
 * answers 302 to the file on a storage host. `failNextUpload` makes the next POST fail (a 5xx, a refusal).
 */
export class BitbucketDownloads {
  readonly requests: ReceivedRequest[] = [];
  readonly files = new Map<string, StoredDownload>();
  failNextUpload: { status: number; body: unknown } | undefined;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly repositories: readonly string[],
  ) {}

  /** A Downloads API holding the given repositories (`workspace/repo`); any other answers 404. */
  static async start(repositories: readonly string[] = ['acme/checkout-service']): Promise<BitbucketDownloads> {
    let mock!: BitbucketDownloads;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const request = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks) };
        mock.requests.push(request);
        const { status, headers, body } = mock.answer(request);
        res.writeHead(status, headers).end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    mock = new BitbucketDownloads(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, repositories);
    server.on('connection', (socket) => {
      mock.sockets.add(socket);
      socket.on('close', () => mock.sockets.delete(socket));
    });
    return mock;
  }

  /** Puts a file in Downloads, as if uploaded earlier. */
  seed(name: string, content: string): void {
    this.files.set(name, { name, bytes: Buffer.from(content), createdOn: '2026-10-01T09:00:00.000000+00:00' });
  }

  /** The file parts of every upload received, in order. */
  uploads(): ReceivedPart[][] {
    return this.requests.filter((r) => r.method === 'POST').map((r) => parseMultipart(r.body, String(r.headers['content-type'] ?? '')));
  }

  reset(): void {
    this.requests.length = 0;
    this.files.clear();
    this.failNextUpload = undefined;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(request: ReceivedRequest): { status: number; headers: Record<string, string>; body?: string } {
    const url = new URL(request.url, this.url);
    const match = /^\/2\.0\/repositories\/([^/]+)\/([^/]+)\/downloads(?:\/([^/]+))?$/.exec(url.pathname);
    const json = (status: number, body: unknown) => ({ status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) });
    if (match === null) return json(404, { type: 'error', error: { message: 'Resource not found' } });
    const [, workspace, repo, name] = match;
    if (!this.repositories.includes(`${workspace}/${repo}`))
      return json(404, { type: 'error', error: { message: `Repository ${workspace}/${repo} not found` } });
    const base = `${this.url}/2.0/repositories/${workspace}/${repo}/downloads`;
    if (request.method === 'GET' && name !== undefined) {
      const file = this.files.get(decodeURIComponent(name));
      return file === undefined
        ? json(404, { type: 'error', error: { message: 'Resource not found' } })
        : { status: 302, headers: { location: `https://bbuseruploads.s3.amazonaws.com/${workspace}/${repo}/${encodeURIComponent(file.name)}?Signature=abc` } };
    }
    if (request.method === 'GET') {
      const pagelen = Math.min(100, Number(url.searchParams.get('pagelen') ?? 10));
      const page = Number(url.searchParams.get('page') ?? 1);
      const all = [...this.files.values()];
      const values = all.slice((page - 1) * pagelen, page * pagelen).map((f) => ({
        name: f.name,
        links: { self: { href: `${base}/${encodeURIComponent(f.name)}` } },
        downloads: 3,
        created_on: f.createdOn,
        user: {
          display_name: 'Mia Krystof',
          type: 'user',
          uuid: '{2f3c4d5e-6a7b-4c8d-9e0f-1a2b3c4d5e6f}',
          account_id: '5b10a2844c20165700ede21g',
          nickname: 'mia-k',
        },
        type: 'download',
        size: f.bytes.length,
      }));
      const body: Record<string, unknown> = { pagelen, size: all.length, values, page };
      if (page * pagelen < all.length) body.next = `${base}?pagelen=${pagelen}&page=${page + 1}`;
      return json(200, body);
    }
    if (request.method === 'POST') {
      if (this.failNextUpload !== undefined) {
        const failure = this.failNextUpload;
        this.failNextUpload = undefined;
        return json(failure.status, failure.body);
      }
      for (const part of parseMultipart(request.body, String(request.headers['content-type'] ?? ''))) {
        if (part.field === 'files') this.files.set(part.filename, { name: part.filename, bytes: part.bytes, createdOn: '2026-10-07T16:20:11.402000+00:00' });
      }
      return { status: 201, headers: {} };
    }
    return json(405, { type: 'error', error: { message: 'Method not allowed' } });
  }
}

/** The parts of a multipart/form-data body, each part's bytes exactly as sent. */
export function parseMultipart(body: Buffer, contentType: string): ReceivedPart[] {
  const boundary = /boundary=("?)([^";]+)\1/.exec(contentType)?.[2];
  if (boundary === undefined) return [];
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: ReceivedPart[] = [];
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    const part = body.subarray(start + 2, next - 2); // after CRLF, before the CRLF that precedes the delimiter
    const headerEnd = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, headerEnd).toString('utf8');
    parts.push({
      field: /name="([^"]*)"/.exec(headers)?.[1] ?? '',
      filename: /filename="([^"]*)"/.exec(headers)?.[1] ?? '',
      contentType: /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1] ?? '',
      bytes: part.subarray(headerEnd + 4),
    });
    at = next;
  }
  return parts;
}
