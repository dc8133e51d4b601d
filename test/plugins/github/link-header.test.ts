import { expect } from 'chai';
import { nextPageFromLink } from '../../../core/http/link-header.js';

describe('nextPageFromLink on GitHub Link headers', () => {
  const cases: Array<[string, string | null, number | null]> = [
    ['no header', null, null],
    [
      "GitHub's first page",
      '<https://api.github.com/repositories/1296269/actions/runs?per_page=30&page=2>; rel="next", <https://api.github.com/repositories/1296269/actions/runs?per_page=30&page=3>; rel="last"',
      2,
    ],
    [
      'a middle page, next not listed first',
      '<https://api.github.com/repositories/1/actions/runs?page=1>; rel="prev", <https://api.github.com/repositories/1/actions/runs?page=3>; rel="next", <https://api.github.com/repositories/1/actions/runs?page=9>; rel="last", <https://api.github.com/repositories/1/actions/runs?page=1>; rel="first"',
      3,
    ],
    [
      'the last page',
      '<https://api.github.com/repositories/1/actions/runs?page=8>; rel="prev", <https://api.github.com/repositories/1/actions/runs?page=1>; rel="first"',
      null,
    ],
    [
      'page before other parameters, commas in the URL',
      '<https://api.github.com/repositories/1/actions/runs?page=4&created=2024-01-01,2024-02-01&per_page=10>; rel="next"',
      4,
    ],
    ['unquoted and upper-case rel', '<https://ghe.example/api/v3/repositories/1/actions/runs?page=5>; REL=next', 5],
    ['several relation types', '<https://api.github.com/repositories/1/actions/runs?page=6>; rel="next last"', 6],
    ['cursor pagination (no page number)', '<https://api.github.com/repositories/1/actions/runs?after=Y3Vyc29y>; rel="next"', null],
    ['a page that is not a positive integer', '<https://api.github.com/repositories/1/actions/runs?page=0>; rel="next"', null],
  ];
  for (const [name, header, expected] of cases) {
    it(`${name} -> ${String(expected)}`, () => {
      expect(nextPageFromLink(header)).to.equal(expected);
    });
  }
});
