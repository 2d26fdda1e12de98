import { Suspense } from 'react';
import { StubsScreen } from '@/components/stubs/stubs-screen';

export const metadata = { title: 'Stubs · Mockyard' };

export default function StubsPage() {
  return (
    <Suspense fallback={<div className="loading">Loading stubs…</div>}>
      <StubsScreen />
    </Suspense>
  );
}
