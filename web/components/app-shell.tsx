'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { ReactNode } from 'react';
import { ApiKeyPrompt } from './api-key-prompt';
import { HubStatus } from './hub-status';
import { ThemeToggle } from './theme-toggle';

const NAV_ITEMS = [
  { href: '/', label: 'Traffic' },
  { href: '/engines', label: 'Engines' },
  { href: '/stubs', label: 'Stubs' },
  { href: '/engine-proxy', label: 'Proxy & recording' },
  { href: '/unmatched', label: 'Unmatched' },
];

export function AppShell({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  return (
    <div className="shell">
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="topbar">
        <span className="brand"><span className="brand-mark" aria-hidden="true" />Mockyard</span>
        <nav className="nav" aria-label="Main">
          {NAV_ITEMS.map((item) => (
            <Link key={item.href} href={item.href} aria-current={pathname === item.href ? 'page' : undefined}>
              {item.label}
            </Link>
          ))}
        </nav>
        <div className="topbar-end">
          <HubStatus />
          <ThemeToggle />
        </div>
      </header>
      <main id="main" className="main" tabIndex={-1}>{children}</main>
      <ApiKeyPrompt />
    </div>
  );
}
