// The start-up code as ASCII. Node reads the code file as UTF-8 on every start (the code cache needs its source
// too), and a file with even one character outside ASCII decodes to a two-byte string through the slow path:
// 8.5-15 ms for the 2 MB start-up code, against 2.5 ms for the same bytes all ASCII. Its ~290 such characters
// (dashes, arrows, section signs) sit in comments and string literals of the bundled packages: each becomes a
// \uXXXX escape, which in a string literal or an untagged template is the same character and in a comment is
// text. Lines are kept, so the source map still points at the right line (a column after an escape shifts).
import { parse } from 'acorn';
import { walk } from './estree-walk.mjs';

/**
 * `code` with every character outside ASCII in a comment, a string literal or an untagged template escaped.
 * Anything else (an identifier, a regular expression, a tagged template, whose raw text its tag can read) is
 * left as it is and named in `warn`: the code stays right, only slower to read.
 */
export function asciiSource(code, warn) {
  if (!/[\u0080-\uffff]/.test(code)) return code;
  const safe = [];
  const tagged = [];
  const ast = parse(code, {
    ecmaVersion: 'latest',
    sourceType: 'script',
    onComment: (_block, _text, start, end) => safe.push([start, end]),
    onToken: (token) => {
      if (token.type.label === 'string' || token.type.label === 'template') safe.push([token.start, token.end]);
    },
  });
  walk(ast, null, (node) => {
    if (node.type === 'TaggedTemplateExpression') tagged.push([node.quasi.start, node.quasi.end]);
  });
  safe.sort((a, b) => a[0] - b[0]);
  const within = (ranges, at) => ranges.some(([start, end]) => start <= at && at < end);
  let out = '';
  let copied = 0;
  let next = 0;
  const left = [];
  for (let i = 0; i < code.length; i++) {
    const unit = code.charCodeAt(i);
    if (unit < 0x80) continue;
    while (next < safe.length && safe[next][1] <= i) next++;
    const inSafe = next < safe.length && safe[next][0] <= i;
    if (!inSafe || within(tagged, i)) {
      left.push(i);
      continue;
    }
    out += code.slice(copied, i) + `\\u${unit.toString(16).padStart(4, '0')}`;
    copied = i + 1;
  }
  if (left.length > 0) warn(`ascii-source: ${left.length} characters outside ASCII left where an escape could change the code (first at ${left[0]})`);
  return out + code.slice(copied);
}
