/**
 * Text about a target made safe for service logs: query strings and user-info often carry credentials
 * (`?password=…`, `?token=…`, `http://user:pass@host`) and logs must never hold them. The captured
 * exchange keeps the full URL; the log line keeps scheme, host and path, enough to find it there.
 */
export function toLogSafeUrl(text: string): string {
  return text.replace(/\b(https?:\/\/)[^\s/?#@]*@/gi, '$1[redacted]@').replace(/(\bhttps?:\/\/[^\s?#]*)\?[^\s#]*/gi, '$1?[query omitted]');
}
