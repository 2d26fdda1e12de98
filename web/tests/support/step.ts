import type { Page } from 'playwright-core';
import type { RunningStack } from '@mockyard/testkit';

/**
 * `it`, whose failure says what the page showed and what the services logged (for failures seen only in CI).
 * The page and stack are read when a test fails, so they may be set up in `beforeAll`.
 */
export function stepWith(current: () => { page: Page; stack: RunningStack }) {
  return (name: string, run: () => Promise<void>) =>
    it(name, async () => {
      try {
        await run();
      } catch (error) {
        const { page, stack } = current();
        const shown = await page.locator('body').innerText({ timeout: 2_000 }).catch(() => '(the page could not be read)');
        if (error instanceof Error) {
          error.message += `\n\n--- the page showed ---\n${shown.slice(0, 3_000)}\n--- the stack logged (the last 6,000 characters) ---\n${stack.output().slice(-6_000)}`;
        }
        throw error;
      }
    });
}
