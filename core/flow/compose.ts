/**
 * One layer of an onion: it does its part, hands on with `next` (at most once, with the context the inner
 * layers get), and may act on the way back. The tool-call pipeline (stage middleware) and the upstream
 * interceptors around the network (the request gate, the HTTP cache) are both onions of layers.
 */
export interface Layer<C, R> {
  readonly name: string;
  run(ctx: C, next: (ctx: C) => Promise<R>): Promise<R>;
}

/** Layers composed around an innermost function; `names` in running order (golden test, logs, the spill check). */
export interface Onion<C, R> {
  run(ctx: C): Promise<R>;
  readonly names: readonly string[];
}

/**
 * The one `compose`: each layer runs, calls `next` to hand on, and may act on the way back; past the last
 * layer, `innermost` runs. A layer that calls `next` twice is a bug: the second call is refused, so nothing
 * inside it (a handler, a request) runs twice by accident. An interceptor that re-runs the rest of the chain
 * (the cache's revalidation) does so through its one `next`, with the context it wants the inner layers to see.
 */
export function compose<C, R>(layers: readonly Layer<C, R>[], innermost: (ctx: C) => Promise<R>): Onion<C, R> {
  const dispatch = (i: number, ctx: C): Promise<R> => {
    const layer = layers[i];
    if (layer === undefined) return innermost(ctx);
    let handedOn = false;
    return layer.run(ctx, (inner) => {
      if (handedOn) return Promise.reject(new Error(`${layer.name} called next() twice`));
      handedOn = true;
      return dispatch(i + 1, inner);
    });
  };
  return { run: (ctx) => dispatch(0, ctx), names: layers.map((l) => l.name) };
}
