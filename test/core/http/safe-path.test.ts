import { expect } from 'chai';
import { isToolError } from '../../../core/errors/tool-error.js';
import { invalidEscapeRun, percentDecoded, safeApiPath, servedPath } from '../../../core/http/path-guards.js';

/** The reason safeApiPath gives for refusing `path`, or undefined when it accepts it. */
function refusal(path: string): string | undefined {
  try {
    safeApiPath(path, 'Jira');
    return undefined;
  } catch (error) {
    if (!isToolError(error) || error.code !== 'invalid_path') throw error;
    return error.message;
  }
}

describe('the shared path check and the one reading of a path (core/http)', () => {
  // The security review's inputs: Tomcat drops ";..." from each segment, then resolves dot segments.
  for (const path of [
    '/rest/api/3/user;x=1/search',
    '/rest/api/3/x/..;/user/search',
    '/rest/api/3/issue/x/..;/..;/user',
    '/rest/api/3/issue/.;x/PLAT-1',
    '/rest/api/3/issue/x/%2e%2e;/user',
    '/rest/api/3/issue/x/%2e%2e%3b/user',
    '/rest/api/3/issue/x/%252e%252e%253b/user',
  ]) {
    it(`refuses the path parameters of ${path}`, () => {
      expect(refusal(path)).to.contain('it contains ";" (path parameters');
    });
  }

  it('keeps a ";" of the query, where it is data', () => {
    expect(refusal('/rest/api/3/search?jql=a;b')).to.equal(undefined);
  });

  for (const path of [
    '/rest/api/3/issue/%c0%ae%c0%ae/user',
    '/wiki/%2e%2e%2f%c0%ae/rest/api/3/myself',
    '/rest/api/3/%e0%80%ae',
    '/rest/api/3/issue/%ff',
    '/rest/api/3/issue/%e2%82',
    '/rest/api/3/%25c0%25ae',
  ]) {
    it(`refuses ${path}: an escape that is not valid UTF-8 (overlong, stray, cut) means different things to different servers`, () => {
      expect(refusal(path)).to.match(/it contains %[0-9a-f%]+, which is not valid UTF-8/i);
    });
  }

  it('accepts valid multi-byte escapes and a lone "%" that is no escape at all', () => {
    expect(refusal('/wiki/rest/api/content/%E2%82%AC-page')).to.equal(undefined);
    expect(refusal('/rest/api/3/issue/PLAT-1?q=100%')).to.equal(undefined);
    expect(invalidEscapeRun('/a/%E2%82%AC/%zz/%')).to.equal(undefined);
    expect(invalidEscapeRun('/a/%2e%2e%2f%c0%ae')).to.equal('%2e%2e%2f%c0%ae');
  });

  it('decodes the ASCII escapes of a malformed run, so a ".." inside the same run as an overlong escape shows', () => {
    // One run: `%2e%2e%2f` is not separated from `%c0%ae`, so the run as a whole is not valid UTF-8.
    expect(percentDecoded('/wiki/%2e%2e%2f%c0%ae/rest')).to.equal('/wiki/../%c0%ae/rest');
    expect(percentDecoded('/a/%2e%2e/%c0%ae/%E2%82%AC/%zz/%')).to.equal('/a/../%c0%ae/€/%zz/%');
  });

  // A CR/LF in a request path is a second header line (or a second request) to a server or proxy that splits on it.
  for (const path of [
    '/rest/api/3/issue/PLAT-1\r\nX-Injected: 1',
    '/rest/api/3/issue/PLAT-1%0d%0aHost:%20evil.example',
    '/rest/api/3/issue/PLAT-1%0AX-Injected:%201',
    '/rest/api/3/issue/PLAT-1%250d%250a',
    '/rest/api/3/search?jql=a%0d%0aX-Injected:%201',
    '/rest/api/3/issue/PLAT-1%00',
    '/rest/api/3/issue/PLAT-1\u007f',
  ]) {
    it(`refuses ${JSON.stringify(path)}: control characters, in any encoding, in the path or its query`, () => {
      expect(refusal(path)).to.contain('it contains control characters');
    });
  }

  it('reads a path as the most liberal server serves it: parameters dropped, dots resolved, escapes decoded', () => {
    expect(servedPath('/rest/api/3/user;x=1/search')).to.equal('/rest/api/3/user/search');
    expect(servedPath('/rest/api/3/x/..;/user/search')).to.equal('/rest/api/3/user/search');
    expect(servedPath('/rest/api/3/issue/x/..;/..;/user')).to.equal('/rest/api/3/user');
    expect(servedPath('/rest/api/3/issue/x/%2e%2e;/user?x=1')).to.equal('/rest/api/3/issue/user');
    expect(servedPath('/repos//ACME/%2573ecret/.;/?page=2')).to.equal('/repos/ACME/secret');
    expect(servedPath('/../../etc')).to.equal('/etc');
    expect(servedPath('/')).to.equal('/');
  });
});
