'use client';
import { useEffect, useState } from 'react';

type Theme = 'light' | 'dark';

/** Light/dark switch; the choice (not a secret) is kept in localStorage and applied before paint by layout. */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>('light');
  useEffect(() => {
    setTheme(document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light');
  }, []);
  const next: Theme = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="small"
      aria-label={`Switch to ${next} theme`}
      onClick={() => {
        document.documentElement.dataset.theme = next;
        try {
          localStorage.setItem('mockyard-theme', next);
        } catch {
          /* storage may be disabled; the theme still applies for this page */
        }
        setTheme(next);
      }}
    >
      {theme === 'dark' ? '☀ Light' : '☾ Dark'}
    </button>
  );
}
