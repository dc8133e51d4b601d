const shim = new URL('./fs-shim.js', import.meta.url).href;

/** Module resolution hook: the conformance package's `fs` imports get the shim; everything else is untouched. */
export async function resolve(
  specifier: string,
  context: { parentURL?: string },
  next: (specifier: string, context: { parentURL?: string }) => Promise<{ url: string }>,
): Promise<{ url: string; shortCircuit?: boolean }> {
  if ((specifier === 'fs' || specifier === 'node:fs') && /\/(@modelcontextprotocol\/conformance|conformance-2026)\//.test(context.parentURL ?? ''))
    return { url: shim, shortCircuit: true };
  return next(specifier, context);
}
