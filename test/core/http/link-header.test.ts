import { expect } from 'chai';
import { nextPageFromLink, parseLinkHeader, positivePage } from '../../../core/http/link-header.js';

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
      { target: 'https://x.example/a?fields=a,b', rels: ['next'] },
      { target: 'https://x.example/b', rels: ['prev'] },
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
