/**
 * A reader that goes away (`mcp-devtools config | head -1`, an MCP client that closed the pipe) makes the next
 * write to stdout fail with EPIPE; Node reports it as an 'error' event, which with no listener ends the process
 * with a stack trace and a failure code. Nothing is wrong: whoever wanted the output has what they wanted. So
 * the CLI ends quietly with exit code 0, or, when a server is running, lets it shut down (`whenOutputCloses`).
 */
let onClosed: () => void = () => process.exit(0);

export function endQuietlyWhenOutputCloses(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') onClosed();
      else throw error;
    });
  }
}

/** Replaces what happens when a reader closes stdout or stderr (the stdio server shuts down on its own). */
export function whenOutputCloses(action: () => void): void {
  onClosed = action;
}
