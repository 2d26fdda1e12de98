import type { IncomingHttpHeaders } from 'node:http';

/** A final (non-1xx) response head, as undici hands it over: raw names and values in order, and an object of lower-cased names. */
export interface ResponseHead {
  status: number;
  statusMessage: string;
  rawHeaders: string[];
  /** Lower-cased names; a repeated header is an array of its values (undici's parseHeaders). */
  headers: IncomingHttpHeaders;
  /** From `Keep-Alive: timeout=N`: how long the target keeps the connection idle, less 2 s of margin (undici's). */
  keepAliveHintMs?: number;
}

/** An HTTP/1.1 response the parser refuses; `code` is llhttp's name for the fault, or undici's for an oversized head. */
export class ResponseParseError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

type State = 'head' | 'length' | 'close' | 'chunk-size' | 'chunk-data' | 'chunk-crlf' | 'trailers' | 'done';

const STATUS_LINE = /^HTTP\/1\.([01]) ([0-9]{3})(?: ([\t\x20-\x7e\x80-\xff]*))?$/;
/** An HTTP token (a header name, a method). */
export const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A character a field value may not hold: controls other than HTAB (CR, LF, NUL among them). */
export const INVALID_FIELD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const TCHARS = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+";
/** A chunk size and its extensions (`;name` or `;name=token` or `;name="quoted"`), no whitespace, as llhttp's strict mode. */
const CHUNK_SIZE = new RegExp(`^([0-9A-Fa-f]{1,12})((?:;${TCHARS}(?:=(?:${TCHARS}|"[^"\\r\\n]*"))?)*)$`);
const MAX_LINE = 4096;

/**
 * Reads one HTTP/1.x response off a connection, a read at a time, the way llhttp does in its strict mode:
 * 1xx heads skipped, the body framed by the request method (HEAD), the status (204, 304), Transfer-Encoding
 * (chunked last: de-chunked; otherwise up to the close), Content-Length, or the close. Anything that does
 * not frame unambiguously is refused (Content-Length beside Transfer-Encoding, differing lengths, obs-fold,
 * bare LF), so a response is never read differently from how the client behind the proxy reads it.
 */
export class ResponseParser {
  /** After the response: whether the connection may carry another request. */
  keepAlive = false;
  /** After the response: bytes of the last read beyond it (a connection with any is not reused). */
  leftover = 0;
  private state: State = 'head';
  private pending: Buffer | undefined;
  private remaining = 0;
  private crlf = 0;
  private trailerBytes = 0;

  constructor(
    private readonly isHeadRequest: boolean,
    private readonly maxHeaderSize = 16384,
  ) {}

  /**
   * Parses one read: `onHead` once with the final head, `onBody` with each slice of the (de-chunked) body,
   * views of `chunk`. True when the response ended in this read; throws ResponseParseError.
   */
  execute(chunk: Buffer, onHead: (head: ResponseHead) => void, onBody: (body: Buffer) => void): boolean {
    let at = 0;
    while (at < chunk.length) {
      switch (this.state) {
        case 'head': {
          if (!this.pending && chunk[at] === 13 && chunk[at + 1] === 10) {
            at += 2; // empty lines before a status line are skipped, as llhttp does
            break;
          }
          const before = this.pending?.length ?? 0;
          const data = this.pending ? Buffer.concat([this.pending, chunk.subarray(at)]) : chunk.subarray(at);
          const end = data.indexOf('\r\n\r\n', Math.max(0, before - 3));
          refuseBareLf(data, Math.max(0, before), end < 0 ? data.length : end + 4);
          if (end < 0 || end > this.maxHeaderSize) {
            if (data.length > this.maxHeaderSize) throw new ResponseParseError('response headers over the size limit', 'UND_ERR_HEADERS_OVERFLOW');
            this.pending = Buffer.from(data);
            return false;
          }
          this.pending = undefined;
          at += end + 4 - before;
          const head = this.parseHead(data.toString('latin1', 0, end));
          if (head === undefined) break; // a 1xx: the final head follows
          onHead(head);
          if ((this.state as State) === 'done') return this.ended(chunk, at); // no body (HEAD, 204, 304, length 0)
          break;
        }
        case 'length':
          at = this.deliver(chunk, at, onBody);
          if (this.remaining === 0) return this.ended(chunk, at);
          break;
        case 'close':
          onBody(chunk.subarray(at));
          return false;
        case 'chunk-size':
        case 'trailers': {
          const newline = chunk.indexOf(10, at);
          if (newline < 0) {
            this.pending = this.pending ? Buffer.concat([this.pending, chunk.subarray(at)]) : Buffer.from(chunk.subarray(at));
            if (this.pending.length > MAX_LINE) throw new ResponseParseError('chunked framing line over 4 KiB', 'HPE_INVALID_CHUNK_SIZE');
            return false;
          }
          const piece = chunk.subarray(at, newline);
          const bytes = this.pending ? Buffer.concat([this.pending, piece]) : piece;
          this.pending = undefined;
          at = newline + 1;
          if (bytes[bytes.length - 1] !== 13) throw new ResponseParseError('bare LF in chunked framing', 'HPE_CR_EXPECTED');
          const line = bytes.toString('latin1', 0, bytes.length - 1);
          if (this.state === 'chunk-size') {
            const size = CHUNK_SIZE.exec(line);
            if (!size) throw new ResponseParseError(`invalid chunk size line ${JSON.stringify(line.slice(0, 40))}`, 'HPE_INVALID_CHUNK_SIZE');
            this.remaining = parseInt(size[1], 16);
            this.state = this.remaining === 0 ? 'trailers' : 'chunk-data';
          } else if (line === '') {
            return this.ended(chunk, at);
          } else {
            this.trailerBytes += line.length + 2;
            if (this.trailerBytes > this.maxHeaderSize) throw new ResponseParseError('response trailers over the size limit', 'UND_ERR_HEADERS_OVERFLOW');
            readField(line); // checked, not kept: trailers are not relayed
          }
          break;
        }
        case 'chunk-data':
          at = this.deliver(chunk, at, onBody);
          if (this.remaining === 0) {
            this.state = 'chunk-crlf';
            this.crlf = 0;
          }
          break;
        case 'chunk-crlf': {
          const byte = chunk[at++];
          if (this.crlf === 0 && byte === 13) this.crlf = 1;
          else if (this.crlf === 1 && byte === 10) this.state = 'chunk-size';
          else throw new ResponseParseError('chunk data not followed by CRLF', 'HPE_STRICT');
          break;
        }
        case 'done':
          return this.ended(chunk, at);
      }
    }
    return false;
  }

  /** True when the body runs to the connection's close: its close ends the response rather than breaking it. */
  endsAtClose(): boolean {
    return this.state === 'close';
  }

  /** Hands on the next `remaining` bytes of the body that this read holds; returns the offset after them. */
  private deliver(chunk: Buffer, at: number, onBody: (body: Buffer) => void): number {
    const n = Math.min(this.remaining, chunk.length - at);
    onBody(chunk.subarray(at, at + n));
    this.remaining -= n;
    return at + n;
  }

  private ended(chunk: Buffer, at: number): true {
    this.state = 'done';
    this.leftover = chunk.length - at;
    return true;
  }

  /** Reads a head and sets the body's framing; undefined for an interim (1xx) response. */
  private parseHead(text: string): ResponseHead | undefined {
    const lines = text.split('\r\n');
    const statusLine = STATUS_LINE.exec(lines[0]);
    if (!statusLine) throw new ResponseParseError(`invalid status line ${JSON.stringify(lines[0].slice(0, 60))}`, lines[0].startsWith('HTTP/') ? 'HPE_INVALID_STATUS' : 'HPE_INVALID_CONSTANT');
    const status = Number(statusLine[2]);
    if (status < 100) throw new ResponseParseError(`invalid status code ${statusLine[2]}`, 'HPE_INVALID_STATUS');
    const rawHeaders: string[] = [];
    const headers: IncomingHttpHeaders = {};
    for (let i = 1; i < lines.length; i++) {
      const [name, value] = readField(lines[i]);
      rawHeaders.push(name, value);
      addHeader(headers, name.toLowerCase(), value);
    }
    if (status < 200) {
      if (status === 101) throw new ResponseParseError('101 Switching Protocols to a request that asked for no upgrade', 'HPE_INVALID_STATUS');
      return undefined;
    }
    const connection = listOf(headers.connection);
    this.keepAlive = statusLine[1] === '1' ? !connection.includes('close') : connection.includes('keep-alive');
    const transferEncoding = headers['transfer-encoding'];
    const contentLength = headers['content-length'];
    if (this.isHeadRequest || status === 204 || status === 304) {
      this.state = 'done';
    } else if (transferEncoding !== undefined) {
      if (contentLength !== undefined) throw new ResponseParseError('Content-Length beside Transfer-Encoding', 'HPE_UNEXPECTED_CONTENT_LENGTH');
      const codings = listOf(transferEncoding);
      if (codings[codings.length - 1] === 'chunked') this.state = 'chunk-size';
      else {
        this.state = 'close';
        this.keepAlive = false;
      }
    } else if (contentLength !== undefined) {
      if (Array.isArray(contentLength)) throw new ResponseParseError('Content-Length given more than once', 'HPE_UNEXPECTED_CONTENT_LENGTH');
      if (!/^[0-9]{1,15}$/.test(contentLength)) throw new ResponseParseError(`invalid Content-Length ${JSON.stringify(contentLength)}`, 'HPE_INVALID_CONTENT_LENGTH');
      this.remaining = Number(contentLength);
      this.state = this.remaining === 0 ? 'done' : 'length';
    } else {
      this.state = 'close';
      this.keepAlive = false;
    }
    const hint = /(?:^|[,;\s])timeout=(\d+)/i.exec(String(headers['keep-alive'] ?? ''));
    const keepAliveHintMs = hint ? Number(hint[1]) * 1000 - 2000 : undefined;
    if (keepAliveHintMs !== undefined && keepAliveHintMs <= 0) this.keepAlive = false;
    return { status, statusMessage: statusLine[3] ?? '', rawHeaders, headers, keepAliveHintMs };
  }
}

/** A header or trailer line's name and value (optional whitespace trimmed), or a ResponseParseError. */
function readField(line: string): [name: string, value: string] {
  const colon = line.indexOf(':');
  const name = colon > 0 ? line.slice(0, colon) : '';
  if (!TOKEN.test(name)) throw new ResponseParseError(`invalid header line ${JSON.stringify(line.slice(0, 60))}`, 'HPE_INVALID_HEADER_TOKEN');
  const value = trimOws(line.slice(colon + 1));
  if (INVALID_FIELD_VALUE.test(value)) throw new ResponseParseError(`invalid ${name} header value`, 'HPE_INVALID_HEADER_TOKEN');
  return [name, value];
}

/** As undici's parseHeaders: the first value a string, a repeated header an array of its values. */
function addHeader(headers: IncomingHttpHeaders, key: string, value: string): void {
  if (!Object.hasOwn(headers, key)) {
    if (key === '__proto__') Object.defineProperty(headers, key, { value, enumerable: true, configurable: true, writable: true });
    else headers[key] = value;
    return;
  }
  const existing = headers[key];
  if (Array.isArray(existing)) existing.push(value);
  else headers[key] = [existing as string, value];
}

/** Throws for a line feed without its carriage return in `data[from, to)` (llhttp's strict mode refuses them in a head). */
function refuseBareLf(data: Buffer, from: number, to: number): void {
  for (let i = data.indexOf(10, from); i >= 0 && i < to; i = data.indexOf(10, i + 1)) {
    if (i === 0 || data[i - 1] !== 13) throw new ResponseParseError('bare LF in the response head', 'HPE_CR_EXPECTED');
  }
}

/** A header's comma-separated elements, lower-cased and trimmed (repeated headers joined first). */
function listOf(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value.join(',') : value)
    .split(',')
    .map((v) => trimOws(v).toLowerCase())
    .filter((v) => v !== '');
}

/** Trims optional whitespace (SP and HTAB only, as RFC 9110 defines it; String#trim would also take NBSP). */
function trimOws(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && (value.charCodeAt(start) === 32 || value.charCodeAt(start) === 9)) start++;
  while (end > start && (value.charCodeAt(end - 1) === 32 || value.charCodeAt(end - 1) === 9)) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}
