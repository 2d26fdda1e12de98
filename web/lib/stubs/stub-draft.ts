/** Hands a stub draft (not a secret) from one screen to the stub editor through sessionStorage. */
const DRAFT_KEY = 'mockyard:stub-draft';

/** A stub to review in the editor, and what its author must know before creating it (shown beside it). */
export type StubDraft = { stub: Record<string, unknown>; warnings: string[] };

export function saveStubDraft(draft: StubDraft): void {
  sessionStorage.setItem(DRAFT_KEY, JSON.stringify(draft));
}

export function takeStubDraft(): StubDraft | undefined {
  const text = sessionStorage.getItem(DRAFT_KEY);
  sessionStorage.removeItem(DRAFT_KEY);
  if (!text) return undefined;
  try {
    const draft = JSON.parse(text) as Partial<StubDraft>;
    return draft.stub && typeof draft.stub === 'object' ? { stub: draft.stub, warnings: Array.isArray(draft.warnings) ? draft.warnings : [] } : undefined;
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
