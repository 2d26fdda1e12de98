/** One part of a multipart body. */
export interface MultipartPart {
  /** From `Content-Disposition: form-data; name="…"`. */
  name?: string;
  filename?: string;
  /** Lower-cased header names. */
  headers: Record<string, string[]>;
  body: Buffer;
}

/** The boundary of a `multipart/*` Content-Type, or null when it is not multipart. */
export function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType || !/^\s*multipart\//i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : null;
}

function dispositionParameter(disposition: string | undefined, key: string): string | undefined {
  if (!disposition) return undefined;
  const match = new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"|;\\s*${key}=([^;\\s]+)`, 'i').exec(disposition);
  if (!match) return undefined;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2];
}

/** Splits a multipart body into parts; malformed input gives the parts read so far. */
export function parseMultipart(contentType: string | undefined, body: Buffer): MultipartPart[] {
  const boundary = multipartBoundary(contentType);
  if (!boundary) return [];
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: MultipartPart[] = [];
  let position = body.indexOf(delimiter);
  while (position >= 0) {
    let start = position + delimiter.length;
    if (body[start] === 0x2d && body[start + 1] === 0x2d) break; // closing --boundary--
    if (body[start] === 0x0d && body[start + 1] === 0x0a) start += 2;
    else if (body[start] === 0x0a) start += 1;
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    let end = next;
    if (body[end - 1] === 0x0a) end--;
    if (body[end - 1] === 0x0d) end--;
    const raw = body.subarray(start, Math.max(start, end));
    let headerEnd = raw.indexOf('\r\n\r\n');
    let separator = 4;
    if (headerEnd < 0) {
      headerEnd = raw.indexOf('\n\n');
      separator = 2;
    }
    const headerText = headerEnd < 0 ? '' : raw.subarray(0, headerEnd).toString('utf8');
    const headers: Record<string, string[]> = {};
    for (const line of headerText.split(/\r?\n/)) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      (headers[line.slice(0, colon).trim().toLowerCase()] ??= []).push(line.slice(colon + 1).trim());
    }
    const disposition = headers['content-disposition']?.[0];
    parts.push({
      name: dispositionParameter(disposition, 'name'),
      filename: dispositionParameter(disposition, 'filename'),
      headers,
      body: headerEnd < 0 ? raw : raw.subarray(headerEnd + separator),
    });
    position = next;
  }
  return parts;
}
