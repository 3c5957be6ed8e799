/** A second local HTTP server playing another web site, for the browser tests of cross-site requests. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtherSite {
  /** `http://localhost:<port>/`: another origin than the hub's 127.0.0.1. */
  url: string;
  close(): Promise<void>;
}

/** Serves `html` at every path on a free port. */
export async function startOtherSite(html: string): Promise<OtherSite> {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(html);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
