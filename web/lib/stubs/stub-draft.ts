/** Hands a stub draft (not a secret) from one screen to the stub editor through sessionStorage. */
const DRAFT_KEY = 'mockyard:stub-draft';

export function saveStubDraft(stub: unknown): void {
  sessionStorage.setItem(DRAFT_KEY, JSON.stringify(stub));
}

export function takeStubDraft(): Record<string, unknown> | undefined {
  const text = sessionStorage.getItem(DRAFT_KEY);
  sessionStorage.removeItem(DRAFT_KEY);
  if (!text) return undefined;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The stub editor's URL for an engine (`undefined` = the active one) with a draft waiting. */
export function buildDraftUrl(engineId?: string): string {
  const query = new URLSearchParams({ draft: '1' });
  if (engineId) query.set('engine', engineId);
  return `/stubs?${query}`;
}
