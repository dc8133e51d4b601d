import fc from 'fast-check';
import { hostileString } from './hostile-strings.js';
import { pathTrick, plausiblePath } from './path-tricks.js';
import { projectionBomb } from './projection-bombs.js';

/**
 * JMESPath expressions, valid and not, including the inherited-member tricks (`constructor`, `__proto__`),
 * projection bombs and expressions longer than the 2,000-character limit.
 */
export function jqExpression(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 1, arbitrary: projectionBomb() },
    { weight: 1, arbitrary: fc.integer({ min: 1990, max: 2100 }).map((n) => `a${' || a'.repeat(Math.ceil(n / 6))}`) },
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        '',
        ' ',
        '@',
        'ok',
        'path',
        'received',
        'query.*',
        'keys(@)',
        'values(@)',
        'length(path)',
        '[*]',
        'received[*].a',
        '{p: path, m: method}',
        'constructor',
        '__proto__',
        'constructor.prototype',
        'toString',
        '*.constructor',
        'to_string(@)',
        'sort_by(@, &a)',
        'not_null(x, y)',
        '[?ok]',
        '`{"a": 1}`',
        'a.b.c.d.e.f.g',
        '&@',
        '[',
        ']',
        '||',
        '@@',
        '`',
        "'unterminated",
        'abs(`-1`)',
        'max_by(@, &x)',
        'join(`,`, @)',
      ),
    },
    { weight: 4, arbitrary: hostileString() },
  );
}

/** Values for a tool's string properties by name: paths full of tricks aimed at `evil`, jq expressions. */
export function stringsByProperty(evil: string): (property: string) => fc.Arbitrary<string> | undefined {
  const path = fc.oneof(
    { weight: 3, arbitrary: pathTrick(evil) },
    { weight: 2, arbitrary: plausiblePath() },
    { weight: 1, arbitrary: hostileString().filter((s) => s.length > 0) },
  );
  return (property) => {
    if (property === 'path') return path;
    if (property === 'jq') return jqExpression();
    if (property === 'artifactId')
      return fc.oneof(
        fc.stringMatching(/^[0-9a-f]{32}$/),
        hostileString().filter((s) => s.length > 0),
        fc.constantFrom('../../etc/passwd', '*', '%', 'a'.repeat(33)),
      );
    return undefined;
  };
}
