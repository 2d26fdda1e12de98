import { Suspense } from 'react';
import { ProxyScreen } from '@/components/proxy-screen';

export const metadata = { title: 'Proxy & recording · Mockyard' };

export default function ProxyPage() {
  return (
    <Suspense fallback={<div className="loading">Loading…</div>}>
      <ProxyScreen />
    </Suspense>
  );
}
