import { Suspense } from 'react';
import { UnmatchedScreen } from '@/components/unmatched-screen';

export const metadata = { title: 'Unmatched · Mockyard' };

export default function UnmatchedPage() {
  return (
    <Suspense fallback={<div className="loading">Loading…</div>}>
      <UnmatchedScreen />
    </Suspense>
  );
}
