import type { Metadata } from 'next';
import { headers } from 'next/headers';
import type { ReactNode } from 'react';
import { AppShell } from '@/components/app-shell';
import { NONCE_HEADER } from '@/lib/security/security-headers';
import './globals.css';

export const metadata: Metadata = {
  title: 'Mockyard',
  description: 'Traffic monitor and mock engine hub',
};

/** Sets the theme before the first paint (saved choice, else the system's), so there is no flash. */
const themeScript = `try{var t=localStorage.getItem('mockyard-theme');if(t!=='light'&&t!=='dark'){t=matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light'}document.documentElement.dataset.theme=t}catch(e){}`;

/** Rendered per request (reading the headers makes every page dynamic): the CSP nonce changes each time. */
export default async function RootLayout({ children }: { children: ReactNode }) {
  const nonce = (await headers()).get(NONCE_HEADER) ?? undefined;
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body>
        <AppShell>{children}</AppShell>
      </body>
    </html>
  );
}
