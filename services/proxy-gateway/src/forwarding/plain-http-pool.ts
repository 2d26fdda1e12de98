import net from 'node:net';
import type { Dispatcher } from 'undici';
import { INVALID_FIELD_VALUE, ResponseParser, TOKEN, type ResponseHead } from './response-parser';

export interface PlainHttpPoolOptions {
  /** Connections per origin (host and port); requests beyond it wait in order for one to be free. */
  connections: number;
  /** A connection not established within this is an error (UND_ERR_CONNECT_TIMEOUT: a 504). */
  connectTimeoutMs: number;
  /** Resolves target names (the outbound policy's lookup: the address it checks is the one connected to). */
  lookup?: net.LookupFunction;
  /** A pooled connection idle this long is closed (a shorter `Keep-Alive: timeout=` hint from the target, less 2 s, wins). */
  idleTimeoutMs: number;
  /** Response heads over this many bytes are refused (UND_ERR_HEADERS_OVERFLOW). */
  maxHeaderSize: number;
}

/** The methods whose bodyless requests carry `content-length: 0`, as undici sends them. */
const PAYLOAD_METHODS = new Set(['PUT', 'POST', 'PATCH', 'QUERY', 'PROPFIND', 'PROPPATCH']);
const INVALID_PATH = /[^\u0021-\u00ff]/;

/**
 * An HTTP/1.1 client for the exchanges a proxy forwards most: plain `http:` targets and no request body. It
 * keeps the part of undici's dispatcher interface that forwardExchange uses (dispatch with onRequestStart,
 * onResponseStart, onResponseData, onResponseEnd, onResponseError, and a controller to pause, resume and
 * abort), over keep-alive sockets pooled per origin, and writes the request as undici would (request line,
 * host, `connection: keep-alive` (`close` for HEAD), the headers in order, `content-length: 0` for bodyless
 * POST/PUT/PATCH).
 * It does less per request than undici's client (no body writers, no TLS, no pipelining, no interceptors),
 * which cost about twice what Node's HTTP server does above raw sockets (decision 8). Targets over TLS and
 * requests with a body go to undici (see createUpstreamDispatcher).
 */
export class PlainHttpPool {
  private readonly origins = new Map<string, Origin>();
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: PlainHttpPoolOptions) {
    // Idle connections are checked once a second, not timed one by one: a timer per request costs more.
    this.sweeper = setInterval(() => this.closeExpired(), 1000);
    this.sweeper.unref();
  }

  /** True for what this client serves: a plain-http origin and no body. */
  static serves(options: Dispatcher.DispatchOptions): boolean {
    return options.body == null && typeof options.origin === 'string' && options.origin.startsWith('http:');
  }

  dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const exchange = new Exchange(handler, (options.method ?? 'GET').toUpperCase());
    handler.onRequestStart?.(exchange, {});
    if (exchange.aborted) return true;
    if (this.closed) {
      exchange.fail(socketError('the upstream pool is closed', 'UND_ERR_DESTROYED'));
      return true;
    }
    let head: string;
    try {
      head = requestHead(exchange.method, options.path, options.headers as string[] | null | undefined);
    } catch (err) {
      exchange.fail(err as Error);
      return true;
    }
    const key = String(options.origin);
    let origin = this.origins.get(key);
    if (!origin) {
      origin = new Origin(new URL(key));
      this.origins.set(key, origin);
    }
    exchange.head = head;
    exchange.origin = origin;
    origin.queue.push(exchange);
    this.next(origin);
    return true;
  }

  /** Closes every connection, connecting ones included; exchanges waiting or in flight fail. */
  close(): void {
    this.closed = true;
    clearInterval(this.sweeper);
    for (const origin of this.origins.values()) {
      origin.idle.length = 0;
      for (const exchange of origin.queue.splice(0)) exchange.fail(socketError('the upstream pool is closed', 'UND_ERR_DESTROYED'));
      // With an error: a body that runs to the close must not end as if complete.
      for (const conn of origin.all) conn.socket.destroy(socketError('the upstream pool is closed', 'UND_ERR_DESTROYED'));
    }
  }

  /** Starts waiting exchanges on idle connections (the most recently used first), opening new ones up to the limit. */
  private next(origin: Origin): void {
    while (origin.queue.length > 0) {
      const conn = this.takeIdle(origin);
      if (conn) {
        this.run(conn, origin.queue.shift() as Exchange);
        continue;
      }
      // Connections being opened or about to be free (validating) will take the first in line.
      if (origin.open >= this.options.connections || origin.connecting + origin.validating >= origin.queue.length) return;
      this.connect(origin);
    }
  }

  private takeIdle(origin: Origin): Connection | undefined {
    const now = Date.now();
    for (let conn = origin.idle.pop(); conn; conn = origin.idle.pop()) {
      if (conn.idleUntil > now && !conn.socket.destroyed) return conn;
      conn.socket.destroy();
    }
    return undefined;
  }

  private connect(origin: Origin): void {
    origin.open++;
    origin.connecting++;
    const socket = net.connect({ host: origin.host, port: origin.port, lookup: this.options.lookup, noDelay: true, keepAlive: true, keepAliveInitialDelay: 60_000 });
    const conn = new Connection(socket);
    origin.all.add(conn);
    let connected = false;
    const timer = setTimeout(() => socket.destroy(socketError(`connect timeout after ${this.options.connectTimeoutMs} ms`, 'UND_ERR_CONNECT_TIMEOUT')), this.options.connectTimeoutMs);
    socket.once('connect', () => {
      connected = true;
      clearTimeout(timer);
      origin.connecting--;
      this.release(origin, conn);
    });
    socket.on('data', (chunk: Buffer) => this.onData(origin, conn, chunk));
    socket.on('error', (err) => {
      conn.error ??= err;
    });
    socket.once('close', () => {
      clearTimeout(timer);
      origin.open--;
      origin.all.delete(conn);
      const idleAt = origin.idle.indexOf(conn);
      if (idleAt >= 0) origin.idle.splice(idleAt, 1);
      const exchange = conn.exchange;
      conn.exchange = undefined;
      if (!connected) {
        origin.connecting--;
        // The connection was opened for the first in line: it gets the error (a refused or unresolvable target).
        origin.queue.shift()?.fail(conn.error ?? socketError('connection closed before it was established', 'UND_ERR_SOCKET'));
      } else if (exchange) {
        exchange.closed(conn.error);
      }
      if (!this.closed) this.next(origin);
    });
  }

  private run(conn: Connection, exchange: Exchange): void {
    conn.exchange = exchange;
    exchange.conn = conn;
    conn.socket.ref();
    conn.socket.write(exchange.head, 'latin1');
  }

  private onData(origin: Origin, conn: Connection, chunk: Buffer): void {
    const exchange = conn.exchange;
    if (!exchange) {
      // Bytes no request asked for: the connection's framing can no longer be trusted.
      conn.socket.destroy();
      return;
    }
    const outcome = exchange.receive(chunk);
    if (outcome === 'more') return;
    conn.exchange = undefined;
    exchange.conn = undefined; // a late pause or resume from the handler must not reach the next exchange
    if (outcome !== 'reuse') {
      conn.socket.destroy();
      return;
    }
    conn.socket.resume(); // the handler may have paused it for the last bytes
    conn.idleUntil = Date.now() + Math.min(this.options.idleTimeoutMs, exchange.keepAliveHintMs ?? Infinity);
    // Reused only after a turn of the event loop, as undici does (GHSA-35p6-xmwp-9g52): bytes, a FIN or a reset
    // already waiting on the socket are read first, and close it (onData with no exchange), rather than being
    // taken for the next request's response.
    origin.validating++;
    setImmediate(() => {
      origin.validating--;
      if (conn.socket.destroyed) this.next(origin);
      else this.release(origin, conn);
    });
  }

  /** A free connection goes to the next waiting exchange, else into the idle list. */
  private release(origin: Origin, conn: Connection): void {
    if (this.closed) {
      conn.socket.destroy();
      return;
    }
    const exchange = origin.queue.shift();
    if (exchange) this.run(conn, exchange);
    else {
      if (conn.idleUntil === 0) conn.idleUntil = Date.now() + this.options.idleTimeoutMs;
      conn.socket.unref(); // an idle pooled connection does not keep the process alive
      origin.idle.push(conn);
    }
  }

  private closeExpired(): void {
    const now = Date.now();
    for (const [key, origin] of this.origins) {
      for (const conn of origin.idle.filter((c) => c.idleUntil <= now)) conn.socket.destroy();
      if (origin.open === 0 && origin.queue.length === 0) this.origins.delete(key);
    }
  }
}

class Origin {
  readonly host: string;
  readonly port: number;
  readonly idle: Connection[] = [];
  /** Every connection, from its connect to its close. */
  readonly all = new Set<Connection>();
  readonly queue: Exchange[] = [];
  open = 0;
  connecting = 0;
  /** Connections between a response's end and their reuse, a turn of the event loop later. */
  validating = 0;

  constructor(url: URL) {
    this.host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    this.port = Number(url.port || 80);
  }
}

class Connection {
  exchange: Exchange | undefined;
  error: Error | undefined;
  /** Until when an idle connection may be reused (Date.now() ms); 0 before its first response. */
  idleUntil = 0;

  constructor(readonly socket: net.Socket) {}
}

/** One request on its way: the controller handed to the handler, and the response's parser. */
class Exchange implements Dispatcher.DispatchController {
  head = '';
  origin: Origin | undefined;
  conn: Connection | undefined;
  rawHeaders: string[] | null = null;
  keepAliveHintMs: number | undefined;
  private readonly parser: ResponseParser;
  private done = false;
  private abortReason: Error | null = null;
  private isPaused = false;

  constructor(
    private readonly handler: Dispatcher.DispatchHandler,
    readonly method: string,
  ) {
    this.parser = new ResponseParser(method === 'HEAD');
  }

  get aborted(): boolean {
    return this.abortReason !== null;
  }

  get paused(): boolean {
    return this.isPaused;
  }

  get reason(): Error | null {
    return this.abortReason;
  }

  abort(reason: Error): void {
    if (this.done || this.abortReason) return;
    this.abortReason = reason;
    const queue = this.origin?.queue;
    const waiting = queue?.indexOf(this) ?? -1;
    if (waiting >= 0) queue?.splice(waiting, 1);
    // A connection in the middle of a response cannot carry another request.
    if (this.conn) {
      this.conn.exchange = undefined;
      this.conn.socket.destroy();
    }
    this.fail(reason);
  }

  pause(): void {
    this.isPaused = true;
    this.conn?.socket.pause();
  }

  resume(): void {
    this.isPaused = false;
    this.conn?.socket.resume();
  }

  /** Ends the exchange with an error, once. */
  fail(err: Error): void {
    if (this.done) return;
    this.done = true;
    this.handler.onResponseError?.(this, err);
  }

  /** Parses one read of the connection: 'more' to come, or the response ended and its connection can be reused or not. */
  receive(chunk: Buffer): 'more' | 'reuse' | 'close' {
    try {
      const ended = this.parser.execute(
        chunk,
        (head) => this.onHead(head),
        (body) => {
          if (!this.done) this.handler.onResponseData?.(this, body);
        },
      );
      if (this.done) return 'close'; // aborted by the handler meanwhile
      if (!ended) return 'more';
      this.done = true;
      // Never after HEAD (sent with `connection: close`, as undici does): some servers send a body anyway.
      const reusable = this.method !== 'HEAD' && this.parser.keepAlive && this.parser.leftover === 0;
      this.handler.onResponseEnd?.(this, {});
      return reusable ? 'reuse' : 'close';
    } catch (err) {
      this.fail(err as Error);
      return 'close';
    }
  }

  /** The connection closed: the end of a close-delimited body, else a failure (nothing or part of the response came). */
  closed(error: Error | undefined): void {
    if (this.done) return;
    if (!error && this.parser.endsAtClose()) {
      this.done = true;
      this.handler.onResponseEnd?.(this, {});
      return;
    }
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    this.fail(error && code ? error : socketError('other side closed', 'UND_ERR_SOCKET'));
  }

  private onHead(head: ResponseHead): void {
    this.rawHeaders = head.rawHeaders;
    this.keepAliveHintMs = head.keepAliveHintMs;
    this.handler.onResponseStart?.(this, head.status, head.headers, head.statusMessage);
  }
}

/** The request line and headers as undici writes them, or an error for a value that cannot go on the wire. */
function requestHead(method: string, path: string, headers: string[] | null | undefined): string {
  if (!TOKEN.test(method)) throw invalidArgument('invalid request method');
  if (INVALID_PATH.test(path)) throw invalidArgument('invalid request path');
  let host: string | undefined;
  let rest = '';
  const list = headers ?? [];
  for (let i = 0; i < list.length; i += 2) {
    const name = list[i];
    const value = list[i + 1];
    if (!TOKEN.test(name)) throw invalidArgument(`invalid header name ${JSON.stringify(name)}`);
    if (INVALID_FIELD_VALUE.test(value)) throw invalidArgument(`invalid ${name} header`);
    const lower = name.length === 4 || name.length === 14 ? name.toLowerCase() : '';
    if (lower === 'host') host ??= value;
    else if (lower === 'content-length') continue; // a bodyless request: undici writes its own, below
    else rest += `${name}: ${value}\r\n`;
  }
  if (host === undefined) throw invalidArgument('a host header is required');
  return `${method} ${path} HTTP/1.1\r\nhost: ${host}\r\nconnection: ${method === 'HEAD' ? 'close' : 'keep-alive'}\r\n${rest}${PAYLOAD_METHODS.has(method) ? 'content-length: 0\r\n' : ''}\r\n`;
}

function invalidArgument(message: string): Error {
  return socketError(message, 'UND_ERR_INVALID_ARG');
}

function socketError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

/** The forwarder's dispatcher: plain-http bodiless exchanges through `plain`, the rest (TLS, request bodies) through `other`. */
export function createUpstreamDispatcher(plain: PlainHttpPool, other: UpstreamDispatcher): UpstreamDispatcher {
  return { dispatch: (options, handler) => (PlainHttpPool.serves(options) ? plain : other).dispatch(options, handler) };
}

/** What forwardExchange needs of an HTTP client: undici's dispatch, with its newer handler interface. */
export type UpstreamDispatcher = Pick<Dispatcher, 'dispatch'>;
