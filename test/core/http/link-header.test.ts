import { expect } from 'chai';
import { nextCursorFromLink, nextPageFromLink, parseLinkHeader, positivePage } from '../../../core/http/link-header.js';

// Headers as the APIs send them (GitHub's REST pagination docs, GitLab's REST pagination docs).
const GITHUB_MIDDLE =
  '<https://api.github.com/repositories/1300192/issues?page=2>; rel="prev", <https://api.github.com/repositories/1300192/issues?page=4>; rel="next", <https://api.github.com/repositories/1300192/issues?page=515>; rel="last", <https://api.github.com/repositories/1300192/issues?page=1>; rel="first"';
const GITLAB_MIDDLE =
  '<https://gitlab.example.com/api/v4/projects/8/issues/8/notes?page=1&per_page=3>; rel="prev", <https://gitlab.example.com/api/v4/projects/8/issues/8/notes?page=3&per_page=3>; rel="next", <https://gitlab.example.com/api/v4/projects/8/issues/8/notes?page=1&per_page=3>; rel="first", <https://gitlab.example.com/api/v4/projects/8/issues/8/notes?page=3&per_page=3>; rel="last"';
const GITLAB_LAST =
  '<https://gitlab.example.com/api/v4/projects/8/pipelines?page=2&per_page=20>; rel="prev", <https://gitlab.example.com/api/v4/projects/8/pipelines?page=1&per_page=20>; rel="first", <https://gitlab.example.com/api/v4/projects/8/pipelines?page=3&per_page=20>; rel="last"';

describe('Link header next-page parser (core/http/link-header)', () => {
  it('reads the next page of a GitHub Link header, whatever the order of its links', () => {
    expect(nextPageFromLink(GITHUB_MIDDLE)).to.equal(4);
  });

  it('reads the next page of a GitLab Link header, with per_page beside it', () => {
    expect(nextPageFromLink(GITLAB_MIDDLE)).to.equal(3);
  });

  it('gives null on the last page, and without a header', () => {
    expect(nextPageFromLink(GITLAB_LAST)).to.equal(null);
    expect(nextPageFromLink(null)).to.equal(null);
    expect(nextPageFromLink(undefined)).to.equal(null);
    expect(nextPageFromLink('')).to.equal(null);
  });

  it('reads another query parameter when the API names its page differently', () => {
    expect(nextPageFromLink('<https://api.example.com/items?p=7&size=50>; rel="next"', 'p')).to.equal(7);
    expect(nextPageFromLink('<https://api.example.com/items?p=7&size=50>; rel="next"')).to.equal(null);
  });

  it('accepts bare and multi-valued rel, relative targets and commas inside the URL', () => {
    expect(nextPageFromLink('</items?page=5>; rel=next')).to.equal(5);
    expect(nextPageFromLink('<https://x.example/items?page=6&fields=a,b>; rel="last next"')).to.equal(6);
    expect(parseLinkHeader('<https://x.example/a?fields=a,b>; rel="next", <https://x.example/b>; rel="prev"')).to.deep.equal([
      { target: 'https://x.example/a?fields=a,b', rels: ['next'], params: { rel: 'next' } },
      { target: 'https://x.example/b', rels: ['prev'], params: { rel: 'prev' } },
    ]);
  });

  it('refuses page values that are not positive integers', () => {
    for (const page of ['0', '-1', '2.5', 'abc', '', '99999999999999999999']) {
      expect(nextPageFromLink(`<https://x.example/items?page=${page}>; rel="next"`), page).to.equal(null);
    }
    expect(nextPageFromLink('<https://x.example/items>; rel="next"')).to.equal(null);
  });

  it('reads page-number headers such as X-Next-Page the same way', () => {
    expect(positivePage('3')).to.equal(3);
    expect(positivePage(' 12 ')).to.equal(12);
    expect(positivePage('')).to.equal(null);
    expect(positivePage(null)).to.equal(null);
  });
});

// Sentry's pagination docs: every list answers with a previous and a next link; `results` says whether the
// link leads anywhere, `cursor` is the value to pass back.
const SENTRY_FIRST =
  '<https://sentry.io/api/0/projects/acme/web/issues/?&cursor=1700000000000:0:1>; rel="previous"; results="false"; cursor="1700000000000:0:1", ' +
  '<https://sentry.io/api/0/projects/acme/web/issues/?&cursor=1700000000000:100:0>; rel="next"; results="true"; cursor="1700000000000:100:0"';
const SENTRY_LAST =
  '<https://sentry.io/api/0/projects/acme/web/issues/?&cursor=1700000000000:100:1>; rel="previous"; results="true"; cursor="1700000000000:100:1", ' +
  '<https://sentry.io/api/0/projects/acme/web/issues/?&cursor=1700000000000:200:0>; rel="next"; results="false"; cursor="1700000000000:200:0"';

describe('Link header parameters and cursors (core/http/link-header)', () => {
  it('keeps every parameter of a link, unquoted, beside its rel', () => {
    expect(parseLinkHeader(SENTRY_FIRST)).to.deep.equal([
      {
        target: 'https://sentry.io/api/0/projects/acme/web/issues/?&cursor=1700000000000:0:1',
        rels: ['previous'],
        params: { rel: 'previous', results: 'false', cursor: '1700000000000:0:1' },
      },
      {
        target: 'https://sentry.io/api/0/projects/acme/web/issues/?&cursor=1700000000000:100:0',
        rels: ['next'],
        params: { rel: 'next', results: 'true', cursor: '1700000000000:100:0' },
      },
    ]);
  });

  it('does not split on a comma inside a quoted value, and unescapes it', () => {
    expect(parseLinkHeader('</a>; rel="next"; title="one, \\"two\\"", </b>; rel=prev')).to.deep.equal([
      { target: '/a', rels: ['next'], params: { rel: 'next', title: 'one, "two"' } },
      { target: '/b', rels: ['prev'], params: { rel: 'prev' } },
    ]);
  });

  it("reads the next cursor from Sentry's cursor parameter, and null when the next link has no results", () => {
    expect(nextCursorFromLink(SENTRY_FIRST)).to.equal('1700000000000:100:0');
    expect(nextCursorFromLink(SENTRY_LAST)).to.equal(null);
  });

  it('falls back to the cursor query parameter of the next link, under the name an API uses', () => {
    expect(nextCursorFromLink('<https://api.example.com/items?after=b64-xyz&limit=20>; rel="next"', 'after')).to.equal('b64-xyz');
    expect(nextCursorFromLink('<https://api.example.com/items?limit=20>; rel="next"', 'after')).to.equal(null);
    expect(nextCursorFromLink(null)).to.equal(null);
    expect(nextCursorFromLink('<https://api.example.com/items?cursor=c1>; rel="prev"')).to.equal(null);
  });
});
