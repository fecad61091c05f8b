import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * How the proxy treats new connections: `forward` to the target; `hangup` closes them at once
 * (the peer sees the connection end without a word); `reset` aborts them (the peer sees ECONNRESET).
 */
export type ProxyMode = 'forward' | 'hangup' | 'reset';

export interface TcpProxy {
  port: number;
  setMode: (mode: ProxyMode) => void;
  /** Sends new connections to another target and cuts the open ones (a load balancer moving a client). */
  setTarget: (target: { host: string; port: number }) => void;
  close: () => Promise<void>;
}

/** A loopback TCP proxy to `target`, for faults a real server cannot be made to show on demand. */
export async function startTcpProxy(target: { host: string; port: number }, mode: ProxyMode = 'forward'): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };
  const server = createServer((client) => {
    track(client);
    if (mode === 'hangup') return void client.end();
    if (mode === 'reset') return void client.resetAndDestroy();
    const upstream = connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    setMode: (next) => {
      mode = next;
    },
    setTarget: (next) => {
      target = next;
      for (const socket of sockets) socket.destroy();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
