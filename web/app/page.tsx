import { Suspense } from 'react';
import { TrafficMonitor } from '@/components/traffic/traffic-monitor';

export default function TrafficPage() {
  return (
    <Suspense fallback={<div className="loading">Loading traffic monitor…</div>}>
      <TrafficMonitor />
    </Suspense>
  );
}
