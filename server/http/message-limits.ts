/**
 * The largest JSON-RPC message either transport reads (4 MiB): a request body over Streamable HTTP, a line over
 * stdio. Larger ones are refused as they arrive, so a runaway client cannot make the server buffer without end.
 */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
