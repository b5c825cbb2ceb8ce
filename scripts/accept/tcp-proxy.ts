/**
 * A TCP proxy in front of a test server (moto_server), for faults and latency
 * the server itself cannot show: stop() closes the port and cuts every open
 * connection, as a store that goes away mid-sync does, and start() opens it
 * again with the server's state intact (moto keeps its objects in memory, so
 * restarting moto itself would lose them). delayMs holds each chunk of the
 * client's data that long before forwarding it (about one delay per request).
 */
import type { Socket, TCPSocketListener } from "bun";

export interface TcpProxy {
  endpoint: string;
  start(): void;
  stop(): void;
}

/** Bytes a socket could not take yet, per socket: Bun's socket.write takes what it can and returns how much, and keeps nothing. */
const waiting = new WeakMap<Socket<unknown>, Uint8Array[]>();
/** Sockets to end once their waiting bytes are written: the other side closed after sending them. */
const ending = new WeakSet<Socket<unknown>>();

/** Ends the socket after what it still has to write: ending it at once cut a response short (ECONNRESET at the reader). */
function endAfterFlush(socket: Socket<unknown>): void {
  if (waiting.get(socket)?.length) ending.add(socket);
  else socket.end();
}

/** Writes all of chunk, now or as the socket drains (flush). Without this, a large response lost bytes and its download stalled. */
function send(socket: Socket<unknown>, chunk: Uint8Array): void {
  const queue = waiting.get(socket);
  if (queue?.length) {
    queue.push(new Uint8Array(chunk));
    return;
  }
  const written = socket.write(chunk);
  if (written < chunk.length) waiting.set(socket, [new Uint8Array(chunk.subarray(Math.max(written, 0)))]);
}

function flush(socket: Socket<unknown>): void {
  const queue = waiting.get(socket);
  while (queue?.length) {
    const head = queue[0]!;
    const written = socket.write(head);
    if (written < head.length) {
      queue[0] = head.subarray(Math.max(written, 0));
      return;
    }
    queue.shift();
  }
  if (ending.has(socket)) socket.end();
}

export function tcpProxy(target: { host: string; port: number }, port = 0, delayMs = 0): TcpProxy {
  let listener: TCPSocketListener<{ upstream?: Socket<unknown>; pending: Uint8Array[] }> | null = null;
  const open = new Set<Socket<unknown>>();
  let boundPort = port;
  const start = () => {
    listener = Bun.listen<{ upstream?: Socket<unknown>; pending: Uint8Array[] }>({
      hostname: "127.0.0.1",
      port: boundPort,
      socket: {
        open(client) {
          client.data = { pending: [] };
          open.add(client as Socket<unknown>);
          void Bun.connect({
            hostname: target.host,
            port: target.port,
            socket: {
              open(upstream) {
                open.add(upstream);
                client.data.upstream = upstream;
                for (const chunk of client.data.pending) send(upstream, chunk);
                client.data.pending = [];
              },
              data(_upstream, chunk) {
                send(client as Socket<unknown>, chunk);
              },
              drain(upstream) {
                flush(upstream);
              },
              close() {
                endAfterFlush(client as Socket<unknown>);
              },
              error() {
                endAfterFlush(client as Socket<unknown>);
              },
            },
          }).catch(() => client.end());
        },
        data(client, chunk) {
          const copy = new Uint8Array(chunk);
          const forward = () => (client.data.upstream ? send(client.data.upstream, copy) : client.data.pending.push(copy));
          if (delayMs > 0) setTimeout(forward, delayMs);
          else forward();
        },
        drain(client) {
          flush(client as Socket<unknown>);
        },
        close(client) {
          open.delete(client as Socket<unknown>);
          client.data.upstream?.end();
        },
      },
    });
    boundPort = listener.port;
  };
  start();
  return {
    endpoint: `http://127.0.0.1:${boundPort}`,
    start,
    stop() {
      listener?.stop(true);
      listener = null;
      for (const socket of open) socket.terminate();
      open.clear();
    },
  };
}
