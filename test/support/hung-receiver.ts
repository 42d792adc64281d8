import { createServer, type AddressInfo, type Socket } from 'node:net';

export interface HungReceiver {
  url: string;
  /** Connections accepted so far, and how many of them the sender has closed (a timeout, or a stop). */
  readonly accepted: number;
  readonly closed: number;
  close(): Promise<void>;
}

/** A webhook endpoint that accepts each connection, reads what arrives and never answers. */
export async function hungReceiver(): Promise<HungReceiver> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  let closed = 0;
  const server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.resume();
    socket.on('error', () => {});
    socket.on('close', () => {
      closed++;
      sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    get accepted() {
      return accepted;
    },
    get closed() {
      return closed;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
