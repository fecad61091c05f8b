import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SourceFiles {
  /** The `context.url` of a served file. */
  url: (name: string) => string;
  close: () => Promise<void>;
}

/** Serves `files` (name -> PDF bytes) on loopback: the "internet" the app downloads task sources from. */
export async function serveSourceFiles(files: Record<string, Buffer>): Promise<SourceFiles> {
  const server = http.createServer((req, res) => {
    const body = files[(req.url ?? '/').slice(1)];
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
