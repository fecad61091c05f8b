import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { createTestContext, type TestContext } from './context.js';
import { PASSWORD, type TestUser } from './review.js';

/** Saving and completing wait on the API (a completion teaches the vendor's profile): more than poll's default second on a busy machine. */
export const COMPLETION = { timeout: 20_000 };

/** Debian's chromium (apt-get install chromium), driven by playwright-core: no browser download. */
export const CHROMIUM = '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A page that collects script errors and refused resources (the page's content security policy): a test expects none. */
export async function openPage(browser: Browser, viewport?: { width: number; height: number }) {
  const page = await browser.newPage(viewport ? { viewport } : {});
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(err.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  return { page, problems };
}

/** Logs the user in on the reviewer page at `baseUrl`. */
export async function logIn(page: Page, baseUrl: string, user: TestUser) {
  await page.goto(`${baseUrl}/review/`);
  await page.fill('#login-form [name=email]', user.email);
  await page.fill('#login-form [name=password]', PASSWORD);
  await page.click('#login-form button[type=submit]');
}

/** The app listening on a loopback port, and Chromium to open its reviewer page. */
export interface ReviewerPageStand {
  ctx: TestContext;
  browser: Browser;
  baseUrl: string;
  close: () => Promise<void>;
}

async function startReviewerPageStand(): Promise<ReviewerPageStand> {
  const ctx = await createTestContext();
  try {
    const baseUrl = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const browser = await launchChromium();
    return {
      ctx,
      browser,
      baseUrl,
      close: async () => {
        await browser.close();
        await ctx.close();
      },
    };
  } catch (error) {
    await ctx.close();
    throw error;
  }
}

/**
 * Starts a stand before the file's tests and closes it after them. The returned object reads the
 * running stand, so a test file declares one constant instead of a variable per part.
 */
export function useReviewerPageStand(): Omit<ReviewerPageStand, 'close'> {
  let stand: ReviewerPageStand | undefined;
  beforeAll(async () => {
    stand = await startReviewerPageStand();
  });
  afterAll(async () => {
    await stand?.close();
  });
  const running = () => {
    if (!stand) throw new Error('the reviewer page stand is used outside the tests of its file');
    return stand;
  };
  return {
    get ctx() {
      return running().ctx;
    },
    get browser() {
      return running().browser;
    },
    get baseUrl() {
      return running().baseUrl;
    },
  };
}
