// The HTTP transport of Zotero's word-processor integration (Google Docs through the Zotero
// Connector, Word for Mac): POST /connector/document/execCommand starts a command and is answered
// with the first document call ({command, arguments}); the plugin runs it and POSTs the result to
// /connector/document/respond, which is answered with the next call, until Document.complete. So
// each answer is held until the command knows its next call. One transaction at a time: another
// execCommand meanwhile gets Zotero's 503. A plugin that goes away (its request closed) or does not
// respond in time ends the transaction and frees the transport.
import type { DocumentCall } from './session';
import { TransportClosed } from './session';

export interface Reply {
  (status: number, type: string, body: string): void;
  /** Called when the plugin closes the request before it is answered. */
  onClose(listener: () => void): void;
}

/** How long a plugin may take to answer one document call (it may be showing the user a dialog). */
export const DEFAULT_RESPOND_TIMEOUT_MS = 10 * 60_000;

export const BUSY_MESSAGE = 'Integration transaction is already in progress';

/** An error the plugin reported instead of a result ({error, message, stack}). */
export class PluginError extends Error {
  override name = 'PluginError';
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

export class HttpTransport {
  #busy = false;
  #reply: Reply | null = null;
  #pending: Pending | null = null;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;
  #abortController = new AbortController();
  readonly #timeoutMs: number;

  constructor(
    private readonly run: (command: string, call: DocumentCall, signal: AbortSignal) => Promise<void>,
    options: { respondTimeoutMs?: number } = {},
  ) {
    this.#timeoutMs = options.respondTimeoutMs ?? DEFAULT_RESPOND_TIMEOUT_MS;
  }

  get busy(): boolean {
    return this.#busy;
  }

  /** POST /connector/document/execCommand {command, docId}. */
  execCommand(body: unknown, reply: Reply): void {
    const command = (body as { command?: unknown } | null)?.command;
    if (typeof command !== 'string' || command.length === 0 || command.length > 100) {
      reply(400, 'text/plain', 'Citewise: execCommand needs {"command": "…"} (e.g. "addEditCitation").\n');
      return;
    }
    if (this.#busy) {
      reply(503, 'text/plain', BUSY_MESSAGE);
      return;
    }
    this.#busy = true;
    this.#closed = false;
    this.#abortController = new AbortController();
    this.#hold(reply);
    void this.run(command, (cmd, args) => this.#send(cmd, args), this.#abortController.signal).finally(() =>
      this.#finish(),
    );
  }

  /** POST /connector/document/respond: the result of the last call (JSON, possibly JSON-encoded twice). */
  respond(body: unknown, reply: Reply): void {
    if (!this.#busy || !this.#pending) {
      reply(400, 'text/plain', 'Citewise: no integration command is waiting for an answer.\n');
      return;
    }
    let data = body;
    if (typeof data === 'string') {
      try {
        data = JSON.parse(data);
      } catch {
        // a plain string result
      }
    }
    const pending = this.#pending;
    this.#pending = null;
    this.#clearTimer();
    this.#hold(reply);
    const err = data as { error?: unknown; message?: unknown } | null;
    if (err && typeof err === 'object' && !Array.isArray(err) && typeof err.error === 'string')
      pending.reject(new PluginError(err.error, typeof err.message === 'string' ? err.message : err.error));
    else pending.resolve(data);
  }

  #hold(reply: Reply): void {
    this.#reply = reply;
    reply.onClose(() => {
      if (this.#reply !== reply) return;
      this.#reply = null;
      this.#abort('the word processor closed the connection');
    });
  }

  #send(command: string, args: unknown[]): Promise<unknown> {
    if (this.#closed || !this.#reply) return Promise.reject(new TransportClosed('the word processor is gone'));
    const reply = this.#reply;
    this.#reply = null;
    reply(200, 'application/json', JSON.stringify({ command, arguments: args }));
    // The plugin does not answer Document.complete: the transaction is over once it is sent.
    if (command === 'Document.complete') {
      this.#closed = true;
      return Promise.resolve(null);
    }
    return new Promise((resolve, reject) => {
      this.#pending = { resolve, reject };
      this.#timer = setTimeout(
        () =>
          this.#abort(`the word processor did not answer ${command} within ${Math.round(this.#timeoutMs / 1000)} s`),
        this.#timeoutMs,
      );
    });
  }

  #abort(reason: string): void {
    this.#closed = true;
    // A dialog open for this command (the picker) closes too.
    this.#abortController.abort(new TransportClosed(reason));
    this.#clearTimer();
    const pending = this.#pending;
    this.#pending = null;
    pending?.reject(new TransportClosed(reason));
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #finish(): void {
    this.#clearTimer();
    this.#pending = null;
    // A command that ended without completing (an internal failure) must not leave the plugin hanging.
    const reply = this.#reply;
    this.#reply = null;
    reply?.(200, 'application/json', JSON.stringify({ command: 'Document.complete', arguments: [null] }));
    this.#busy = false;
    this.#closed = true;
  }
}
