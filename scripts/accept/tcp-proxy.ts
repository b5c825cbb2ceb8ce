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
                for (const chunk of client.data.pending) upstream.write(chunk);
                client.data.pending = [];
              },
              data(_upstream, chunk) {
                client.write(chunk);
              },
              close() {
                client.end();
              },
              error() {
                client.end();
              },
            },
          }).catch(() => client.end());
        },
        data(client, chunk) {
          const forward = () => (client.data.upstream ? client.data.upstream.write(chunk) : client.data.pending.push(new Uint8Array(chunk)));
          if (delayMs > 0) setTimeout(forward, delayMs);
          else forward();
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
