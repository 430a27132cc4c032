// A cap on the connections a loopback server holds, for the editor API (electron/api) and browser
// mode's host (electron/host). Any program on the machine may connect to them; tens of thousands of
// connections that send nothing used every file descriptor the process had, and both servers stopped
// answering anyone. Node's own `server.maxConnections` refuses the newest connection, which is the
// one a real client just opened; here the longest-idle one gives way instead: a connection with no
// request in progress (never sent one, or waiting between keep-alive requests). A connection that is
// being answered (a held pick, an export, an open WebSocket) is never dropped for a newcomer; when
// every connection is busy, the newcomer is the one refused.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimit {
  /** Connections held now. */
  readonly count: number;
  /** Connections dropped to make room, or refused, since the start (tests, logs). */
  readonly dropped: number;
}

interface Tracked {
  /** Requests in progress on the connection (keep-alive may pipeline; an upgraded socket stays busy). */
  busy: number;
}

/**
 * Keeps `server` at `max` connections or fewer (see the file's comment); returns its counters.
 * `upgrades`: the server takes protocol upgrades (a WebSocket), whose connections then count as busy.
 * Only for a server with its own 'upgrade' handler: listening for the event makes Node leave
 * upgrade requests to the listeners.
 */
export function limitConnections(server: Server, max: number, options: { upgrades?: boolean } = {}): ConnectionLimit {
  // Insertion order is idleness order: a connection moves to the end each time it finishes a request.
  const sockets = new Map<Socket, Tracked>();
  let dropped = 0;

  server.on('connection', (socket: Socket) => {
    if (sockets.size >= max) {
      let victim: Socket | null = null;
      for (const [s, t] of sockets)
        if (t.busy === 0) {
          victim = s;
          break;
        }
      dropped++;
      if (victim === null) {
        socket.destroy();
        return;
      }
      sockets.delete(victim);
      victim.destroy();
    }
    sockets.set(socket, { busy: 0 });
    socket.once('close', () => sockets.delete(socket));
  });

  server.on('request', (req, res) => {
    const socket = req.socket;
    const tracked = sockets.get(socket);
    if (!tracked) return;
    tracked.busy++;
    let done = false;
    const finished = () => {
      if (done) return;
      done = true;
      tracked.busy--;
      // Most recently active last: idle connections that are used keep their place at the back.
      if (sockets.delete(socket)) sockets.set(socket, tracked);
    };
    res.once('finish', finished);
    res.once('close', finished);
  });

  // An upgraded connection (browser mode's WebSocket) is in use for as long as it is open.
  if (options.upgrades)
    server.on('upgrade', (req) => {
      const tracked = sockets.get(req.socket as Socket);
      if (tracked) tracked.busy++;
    });

  return {
    get count() {
      return sockets.size;
    },
    get dropped() {
      return dropped;
    },
  };
}
