import { request } from 'node:http';
import { expect } from 'chai';
import { deployment, runCli, startServer, type RunningServer } from './running-server.js';

const ALICE = { token: 'tok-alice-notes-51c0e2', subject: 'alice', groups: ['developers'] };
const BOB = { token: 'tok-bob-notes-9a7d13', subject: 'bob', groups: ['developers'] };

/** The status of a GET sent with another Host header than the address it goes to. */
function statusUnderHost(url: string, host: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { host, authorization: `Bearer ${token}` } }, (response) => {
      response.resume();
      resolve(response.statusCode!);
    })
      .once('error', reject)
      .end();
  });
}

/**
 * The plugin's three contributions through the real server and CLI (the installed mcp-devtools, this example's
 * config file): its route behind the server's authentication, its command, and its console page inside a
 * signed-in console session. One SQLite store is shared by the server and the commands, as in a deployment.
 */
describe('notes plugin: a route, a command and a console page (mcp-devtools over HTTP, bearer tokens)', () => {
  const { env } = deployment([ALICE, BOB]);
  let server: RunningServer;

  before(async () => (server = await startServer({ ...env, MCP_CONSOLE: 'true' })));
  after(() => server.stop());

  const post = (path: string, token: string | undefined, body: unknown): Promise<Response> =>
    fetch(`${server.base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
      body: JSON.stringify(body),
    });

  describe('the route, /plugins/notes', () => {
    it('adds a note as the person the server authenticated, whatever the body says, and lists it', async () => {
      const added = await post('/plugins/notes', ALICE.token, { text: 'Release freeze until Friday.', author: 'mallory' });
      expect(added.status).to.equal(201);
      expect(((await added.json()) as { note: { author: string } }).note.author).to.equal('alice');
      const listed = await fetch(`${server.base}/plugins/notes`, { headers: { authorization: `Bearer ${BOB.token}` } });
      expect(listed.status).to.equal(200);
      const { notes } = (await listed.json()) as { notes: Array<{ author: string; text: string }> };
      expect(notes[0]).to.include({ author: 'alice', text: 'Release freeze until Friday.' });
    });

    it('is answered by the server, not the plugin, without a valid token or under a foreign Host name', async () => {
      const none = await post('/plugins/notes', undefined, { text: 'Anyone?' });
      expect(none.status).to.equal(401);
      expect(none.headers.get('www-authenticate')).to.equal('Bearer realm="mcp-devtools"');
      expect(((await none.json()) as { error: string }).error).to.equal(
        'Send your own bearer token (Authorization: Bearer <token>): notes are read and added with your own bearer token.',
      );
      expect((await post('/plugins/notes', `${ALICE.token}x`, { text: 'Forged.' })).status).to.equal(401);
      // A DNS-rebinding page reaches the server under its own name: fetch cannot set Host, node:http can.
      expect(await statusUnderHost(`${server.base}/plugins/notes`, 'attacker.example', ALICE.token)).to.equal(421);
      const { notes } = (await (await fetch(`${server.base}/plugins/notes`, { headers: { authorization: `Bearer ${ALICE.token}` } })).json()) as {
        notes: Array<{ text: string }>;
      };
      expect(notes.map((n) => n.text)).to.not.include.members(['Anyone?', 'Forged.']);
    });

    it('answers its own errors: a body that is not a note, and a path it does not know', async () => {
      const bad = await post('/plugins/notes', ALICE.token, { note: 'wrong field' });
      expect([bad.status, ((await bad.json()) as { error: string }).error]).to.deep.equal([400, 'Send JSON {"text": "the note"}.']);
      expect((await fetch(`${server.base}/plugins/notes/elsewhere`, { headers: { authorization: `Bearer ${ALICE.token}` } })).status).to.equal(404);
    });
  });

  describe('the command, mcp-devtools notes', () => {
    it('lists what the server stored, and adds a note the server then serves', async () => {
      await post('/plugins/notes', BOB.token, { text: 'Runner 3 is flaky.' });
      const listed = await runCli(['notes', 'list', '--json'], env);
      expect(listed.code, listed.stderr).to.equal(0);
      expect((JSON.parse(listed.stdout) as Array<{ author: string; text: string }>)[0]).to.include({ author: 'bob', text: 'Runner 3 is flaky.' });
      const added = await runCli(['notes', 'add', 'Deploys resume Monday.'], env);
      expect(added.code, added.stderr).to.equal(0);
      expect(added.stdout).to.match(/^Noted, as .+\.\n$/);
      const { notes } = (await (await fetch(`${server.base}/plugins/notes`, { headers: { authorization: `Bearer ${BOB.token}` } })).json()) as {
        notes: Array<{ text: string }>;
      };
      expect(notes[0]!.text).to.equal('Deploys resume Monday.');
    });

    it('is listed by mcp-devtools --help beside the built-in commands, and helps and fails as they do', async () => {
      const help = await runCli(['--help'], env);
      // Commander wraps the description to the terminal's width.
      const listed = help.stdout.replace(/\s+/g, ' ');
      // Contributed commands follow the built-in ones (the identity plugin's accounts among them), before help.
      expect(listed).to.contain(' audit audit log tools ');
      expect(listed).to.contain(" rotate the vault key notes list or add the team's notes, in the server's store help [command]");
      const own = await runCli(['notes', '--help'], env);
      expect(own.stdout).to.contain('Usage: mcp-devtools notes').and.to.contain('list [options]').and.to.contain('add [options] <text>');
      const empty = await runCli(['notes', 'add', '   '], env);
      expect([empty.code, empty.stderr]).to.deep.equal([1, 'mcp-devtools: A note needs some text.\n']);
    });
  });

  describe('the console page, /console/notes', () => {
    /** Signs in with a bearer token as a browser does: the form's CSRF token, then the session cookie. */
    async function signIn(token: string): Promise<string> {
      const form = await fetch(`${server.base}/console/signin`);
      const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1]!;
      const cookie = form.headers.getSetCookie()[0]!.split(';', 1)[0]!;
      const signedIn = await fetch(`${server.base}/console/signin`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams({ csrf, token }).toString(),
      });
      expect(signedIn.status).to.equal(303);
      return signedIn.headers
        .getSetCookie()
        .find((c) => c.startsWith('mcp_console='))!
        .split(';', 1)[0]!;
    }

    it('shows the notes in the console frame to a signed-in person: their name, the navigation, the strict CSP', async () => {
      await post('/plugins/notes', ALICE.token, { text: 'Use <b>staging</b> for demos.' });
      const session = await signIn(BOB.token);
      const page = await fetch(`${server.base}/console/notes`, { headers: { cookie: session } });
      expect(page.status).to.equal(200);
      const text = await page.text();
      expect(text).to.contain('<span class="subject">bob</span> <span class="role">viewer</span>');
      expect(text).to.contain('<a href="/console/notes" aria-current="page">Notes</a>');
      // What a note says is text on the page, never markup.
      expect(text).to.contain('Use &lt;b&gt;staging&lt;/b&gt; for demos.');
      expect(page.headers.get('content-security-policy')).to.contain("script-src 'self'");
    });

    it('adds a note from its form as the person signed in, and refuses the form without its CSRF token', async () => {
      const session = await signIn(ALICE.token);
      const text = await (await fetch(`${server.base}/console/notes`, { headers: { cookie: session } })).text();
      const csrf = /name="csrf" value="([^"]+)"/.exec(text)![1]!;
      const form = (fields: Record<string, string>): Promise<Response> =>
        fetch(`${server.base}/console/notes`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: session },
          body: new URLSearchParams(fields).toString(),
        });
      const forged = await form({ text: 'Forged from another site.' });
      expect(forged.status).to.equal(403);
      const added = await form({ csrf, text: 'Retro at 3pm.' });
      expect([added.status, added.headers.get('location')]).to.deep.equal([303, '/console/notes']);
      const page = await (await fetch(`${server.base}/console/notes`, { headers: { cookie: session } })).text();
      expect(page).to.contain('<strong>alice</strong>').and.to.contain('Retro at 3pm.').and.not.to.contain('Forged from another site.');
    });

    it('sends a signed-out browser to sign in first', async () => {
      const answer = await fetch(`${server.base}/console/notes`, { redirect: 'manual' });
      expect([answer.status, answer.headers.get('location')]).to.deep.equal([303, '/console/signin']);
    });
  });
});
