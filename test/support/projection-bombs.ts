import fc from 'fast-check';

const doubling = (step: string, n: number, tail = ''): string => `${Array(n).fill(step).join(' | ')}${tail}`;

/**
 * JMESPath expressions that are small, valid and cheap to parse, but whose result doubles at every step:
 * by sharing (`[@,@]`, `{a: @, b: @}`), by flattening (`[@,@][]`), through functions that walk or build
 * (`to_string`, `==`, `join`, `map`), at any depth. Each must be stopped as projection_too_large.
 */
export function projectionBombs(): string[] {
  return [
    doubling('[@,@]', 22),
    doubling('[@,@]', 30, ' | @ == @'),
    doubling('[@,@]', 30, ' | to_string(@)'),
    doubling('[@,@]', 30, ' | length(to_string(@))'),
    doubling('[@,@][]', 40),
    doubling('{a: @, b: @}', 30),
    doubling('[@, @, @, @]', 15),
    doubling('[to_string(@), to_string(@)]', 30),
    doubling('join(`""`, [to_string(@), to_string(@)])', 30),
    doubling('map(&[@,@], [@,@])', 25),
    `owner.${doubling('[@,@]', 30)}`,
    `[${doubling('[@,@]', 30)}][0]`,
  ];
}

/** A projection bomb of any of those kinds, for the generated-arguments tests. */
export function projectionBomb(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...projectionBombs()),
    fc.tuple(fc.constantFrom('[@,@]', '[@,@][]', '{a: @, b: @}', '[@, @, @]'), fc.integer({ min: 25, max: 60 })).map(([step, n]) => doubling(step, n)),
  );
}

/** `[x, x]` nested `depth` times: 2^depth leaves from `depth + 1` objects, as a value sharing parts by reference. */
export function sharedValue(depth: number): unknown {
  let value: unknown = { leaf: 'x'.repeat(40) };
  for (let i = 0; i < depth; i++) value = [value, value];
  return value;
}
