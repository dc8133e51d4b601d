import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Contributions, RouteContribution, RouteHandler } from '../../../core/plugin/contributions.js';
import { Plugin } from '../../../core/plugin/decorators.js';
import type { PluginClass } from '../../../core/plugin/metadata.js';
import { TokenAuthenticator } from '../../../server/auth/token-authenticator.js';
import { declaredCommands } from '../../../server/cli/plugin-commands.js';
import { declaredPages } from '../../../server/console/mount.js';
import { HostCheck } from '../../../server/http/host-check.js';
import { declaredRoutes, servePluginRoutes } from '../../../server/routes/plugin-routes.js';
import { capturedLogger, tokensFileFolder } from '../../support/auth-fixture.js';
import { onFreshConnection } from '../../support/fresh-connection.js';

const never = async (): Promise<never> => {
  throw new Error('not loaded by these checks');
};

/** A plugin class that contributes what it is given, and nothing else. */
function contributing(name: string, contributes: Contributions): PluginClass {
  @Plugin({ name, version: '1.0.0', contributes })
  class Contributing {}
  return Contributing;
}

const route = (prefix?: string): RouteContribution => ({ ...(prefix === undefined ? {} : { prefix }), credentials: 'send yours', load: never });

describe('what plugins contribute, as the server takes it (server/routes, server/cli, server/console)', () => {
  describe('routes', () => {
    it('mounts a route at /plugins/<name>, or at the prefix it declares', () => {
      const declared = declaredRoutes([contributing('notes', { routes: [route()] }), contributing('policy', { routes: [route('/admin/approvals')] })]);
      expect(declared.map((d) => [d.plugin, d.prefix])).to.deep.equal([
        ['notes', '/plugins/notes'],
        ['policy', '/admin/approvals'],
      ]);
    });

    it("refuses a prefix that is not a plain path, one of the server's own, or another plugin's, naming the plugins", () => {
      const refusal = (...plugins: PluginClass[]): string => {
        try {
          declaredRoutes(plugins);
        } catch (error) {
          return (error as Error).message;
        }
        return 'accepted';
      };
      expect(refusal(contributing('x', { routes: [route('plugins/x')] }))).to.match(/^Plugin "x" contributes a route at "plugins\/x": a prefix is a path/);
      expect(refusal(contributing('x', { routes: [route('/plugins/x/../../mcp')] }))).to.match(/without a trailing slash, dots or a query\.$/);
      expect(refusal(contributing('x', { routes: [route('/mcp/x')] }))).to.equal(
        'Plugin "x" contributes a route at "/mcp/x", which the server answers itself (/mcp): choose another prefix.',
      );
      expect(refusal(contributing('x', { routes: [route('/console')] }))).to.contain('which the server answers itself (/console)');
      expect(refusal(contributing('x', { routes: [{ ...route('/open'), auth: 'none', adminToken: true }] }))).to.equal(
        'Plugin "x" contributes a route at "/open" with auth: \'none\' and adminToken: true: a route open to anyone reads no token; drop one of them.',
      );
      expect(refusal(contributing('a', { routes: [route('/admin')] }), contributing('b', { routes: [route('/admin/b')] }))).to.equal(
        'Plugin "b" contributes a route at "/admin/b", and plugin "a" one at /admin: one of them must move.',
      );
    });

    describe('served behind the server', () => {
      const folder = tokensFileFolder('plugin-routes-', [{ token: 'tok-alice-routes-3e1f', subject: 'alice', groups: ['developers'] }]);
      const { logger, lines } = capturedLogger();
      let server: Server;
      let base: string;
      let authenticator: TokenAuthenticator;
      const seen: string[] = [];

      before(async () => {
        authenticator = await TokenAuthenticator.open(join(folder.dir, 'tokens.yaml'), logger);
        const echo: RouteHandler = async (request, response) => {
          seen.push(request.caller.kind === 'person' ? request.caller.principal.subject : request.caller.kind);
          if (request.path.endsWith('/fail')) throw new Error('disk on fire: /secret/path');
          response.writeHead(200).end('ok');
        };
        const routes = servePluginRoutes(
          [
            { plugin: 'people', prefix: '/plugins/people', route: route(), handler: echo },
            { plugin: 'bots', prefix: '/plugins/bots', route: { ...route(), adminToken: true }, handler: echo },
            { plugin: 'open', prefix: '/plugins/open', route: { ...route(), auth: 'none' }, handler: echo },
          ],
          {
            credentials: { adminToken: 'admin-routes-token-77', metricsToken: 'metrics-routes-token-88', authenticator, logger },
            hostCheck: new HostCheck({ bindHost: '127.0.0.1', publicUrls: [], allowedOrigins: [], allowedHosts: [] }),
            logger,
          },
        );
        server = createServer((request, response) => void routes(request, response).then((answered) => answered || response.writeHead(404).end()));
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      });
      after(async () => {
        authenticator.close();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      });

      const get = async (path: string, token?: string): Promise<{ status: number; body: string }> => {
        const response = await fetch(`${base}${path}`, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
        return { status: response.status, body: await response.text() };
      };

      it('hands the route the person the token names, and MCP_ADMIN_TOKEN only to a route that lets it in', async () => {
        seen.length = 0;
        expect((await get('/plugins/people/x', 'tok-alice-routes-3e1f')).status).to.equal(200);
        expect((await get('/plugins/bots/x', 'admin-routes-token-77')).status).to.equal(200);
        expect((await get('/plugins/people/x', 'admin-routes-token-77')).status).to.equal(401);
        expect(seen).to.deep.equal(['alice', 'admin']);
      });

      it("admits anyone to a route declared auth: 'none', as the anonymous caller, whatever token is sent, and only under the server's Host", async () => {
        seen.length = 0;
        expect((await get('/plugins/open/callback?code=x')).status).to.equal(200);
        expect((await get('/plugins/open', 'tok-alice-routes-3e1f')).status).to.equal(200);
        expect((await get('/plugins/open', 'admin-routes-token-77')).status).to.equal(200);
        // A token sent to an open route names nobody: the route never acts for the person.
        expect(seen).to.deep.equal(['anonymous', 'anonymous', 'anonymous']);
        const rebinding = await onFreshConnection(`${base}/plugins/open`, { headers: { host: 'attacker.example' } });
        expect(rebinding.status).to.equal(421);
        expect(seen).to.have.length(3);
        // The routes beside it still want their token.
        expect((await get('/plugins/people/x')).status).to.equal(401);
      });

      it('refuses the scrape token and a missing one before the route runs, saying what to send', async () => {
        seen.length = 0;
        expect(await get('/plugins/bots', 'metrics-routes-token-88')).to.deep.equal({
          status: 403,
          body: JSON.stringify({ error: 'This is MCP_METRICS_TOKEN, which scrapes /metrics and nothing else: send yours.' }),
        });
        expect(await get('/plugins/people')).to.deep.equal({
          status: 401,
          body: JSON.stringify({ error: 'Send your own bearer token (Authorization: Bearer <token>): send yours.' }),
        });
        expect(seen).to.deep.equal([]);
      });

      it("answers a route that throws with a 500 naming its plugin, and logs the error, not the caller's view of it", async () => {
        expect(await get('/plugins/people/fail', 'tok-alice-routes-3e1f')).to.deep.equal({
          status: 500,
          body: JSON.stringify({ error: 'The route of plugin "people" failed; the server log has the details.' }),
        });
        expect(lines.some((l) => l.includes('"plugin":"people"') && l.includes('disk on fire'))).to.equal(true);
      });

      it('leaves every other path to the next route', async () => {
        expect((await get('/plugins/peoplex', 'tok-alice-routes-3e1f')).status).to.equal(404);
        expect((await get('/plugins', 'tok-alice-routes-3e1f')).status).to.equal(404);
      });
    });
  });

  describe('commands', () => {
    const command = (verb?: string) => ({ ...(verb === undefined ? {} : { verb }), description: 'd', load: never });

    it("takes the plugin's name as the verb unless it declares one, in the plugins' order", () => {
      const declared = declaredCommands(
        [contributing('notes', { commands: [command()] }), contributing('policy', { commands: [command('audit')] })],
        ['serve'],
      );
      expect(declared.map((d) => d.verb)).to.deep.equal(['notes', 'audit']);
    });

    it("refuses a verb that is not a word, one of the CLI's own, or another plugin's, naming both", () => {
      expect(() => declaredCommands([contributing('x', { commands: [command('Do It')] })], [])).to.throw(
        /^Plugin "x" contributes the command "Do It": a verb is a lower-case word/,
      );
      expect(() => declaredCommands([contributing('x', { commands: [command('serve')] })], ['serve'])).to.throw(
        'Plugin "x" contributes the command "serve", which is one of mcp-devtools\' own: choose another verb.',
      );
      expect(() => declaredCommands([contributing('a', { commands: [command('notes')] }), contributing('b', { commands: [command('notes')] })], [])).to.throw(
        'Plugins "a" and "b" both contribute the command "notes": give one of them another verb.',
      );
    });
  });

  describe('console pages', () => {
    const pages = (...specs: Array<{ path: string; home?: boolean }>) => ({ console: { pages: specs, load: never } });

    it("refuses a page at the frame's own paths, a path taken twice, and a second first page, naming the plugins", () => {
      expect(() => declaredPages([contributing('x', pages({ path: 'signin' }))])).to.throw(
        /^Plugin "x" contributes the console page "signin": a page's path is a lower-case word/,
      );
      expect(() => declaredPages([contributing('a', pages({ path: 'notes' })), contributing('b', pages({ path: 'notes' }))])).to.throw(
        'Plugin "b" contributes the console page "notes", which plugin "a" contributes too: one of them must move.',
      );
      expect(() => declaredPages([contributing('a', pages({ path: 'one', home: true })), contributing('b', pages({ path: 'two', home: true }))])).to.throw(
        'Plugin "b" contributes the console page "two" as the console\'s first page, and plugin "a" one too: one page may be at /console.',
      );
      expect(declaredPages([contributing('a', pages({ path: 'one', home: true }, { path: 'two' }))]).map((d) => d.plugin)).to.deep.equal(['a']);
    });
  });
});
