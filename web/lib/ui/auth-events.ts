/** The hub or the traffic API answered 401: the shell shows the API-key prompt; after a key is saved, resources reload. */
const UNAUTHORIZED = 'mockyard:unauthorized';
const AUTHORIZED = 'mockyard:authorized';

export function announceUnauthorized(): void {
  window.dispatchEvent(new Event(UNAUTHORIZED));
}

export function announceAuthorized(): void {
  window.dispatchEvent(new Event(AUTHORIZED));
}

export function onUnauthorized(listener: () => void): () => void {
  window.addEventListener(UNAUTHORIZED, listener);
  return () => window.removeEventListener(UNAUTHORIZED, listener);
}

export function onAuthorized(listener: () => void): () => void {
  window.addEventListener(AUTHORIZED, listener);
  return () => window.removeEventListener(AUTHORIZED, listener);
}
