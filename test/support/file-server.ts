import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FileServer {
  url: (path: string) => string;
  /** Requests seen, as `METHOD /path`. */
  requests: string[];
  close: () => Promise<void>;
}

/**
 * A loopback HTTP server for `context.url`: serves the given files, 404 elsewhere, and
 * `/slow` never answers (for timeouts). Closes its open sockets on close.
 */
export interface ServedFile {
  body: Buffer;
  type: string;
  /** GETs wait this long before answering (a slow source, to catch a job mid-download). */
  delayMs?: number;
}

export async function startFileServer(files: Record<string, ServedFile>): Promise<FileServer> {
  const requests: string[] = [];
  const server: Server = createServer(async (req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/slow') return; // hold the request open
    const file = files[path];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    if (req.method === 'GET' && file.delayMs) await new Promise((r) => setTimeout(r, file.delayMs));
    res.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
