import { EnginesScreen } from '@/components/engines-screen';

export const metadata = { title: 'Engines · Mockyard' };

export default function EnginesPage() {
  return <EnginesScreen />;
}
