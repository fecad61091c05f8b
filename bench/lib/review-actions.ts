/**
 * The scripted review of bench:review (and of its test): one invoice whose reading has two wrong
 * fields, fixed on the reviewer page in a browser with the reviewer's clicks and keys counted.
 */
import type { Page } from 'playwright-core';
import type { Entity } from '../../src/domain/entities.js';

/**
 * The little of the browser's DOM the functions run in the page use (they are sent to the browser
 * as source; the project's TypeScript has no DOM library, and the page's content security policy
 * refuses strings evaluated as script).
 */
declare const document: {
  activeElement: { dataset?: Record<string, string | undefined> } | null;
  querySelector(selector: string): { naturalWidth?: number } | null;
};

/** Clicks and key presses (a chord such as Alt+ArrowDown is one) to fix the two fields and complete. */
export const REVIEW_ACTIONS_GOAL = 8;

type Chunks = ReadonlyArray<{ entities: Entity[] }>;

/** What the reviewer must leave in the fields the reading got wrong, and the printed word to point at. */
export const FIXES = [
  { category: 'DueDate', word: '10/04/2026', content: '10/04/2026' },
  { category: 'InvoiceTotal', word: '1,548.00', content: '1,548.00' },
] as const;

/**
 * The model's reading of the invoice with two mistakes a harder print makes: the due date not
 * found (an empty slot) and the total read at the subtotal's place, with the lowered confidence a
 * failed sum check gives it. The rest of the scenario is fixed too, so that it measures the page and
 * not the model's calibration of the day: the buyer's name and tax id stay as the model read them
 * (the buyer's tax id is not printed), every other field the model found counts as sure (0.95).
 */
export function withTwoWrongFields<C extends Chunks>(chunks: C): C {
  const [first, ...rest] = chunks;
  const subtotal = first!.entities.find((e) => e.type === 'Field' && e.category === 'SubTotal')!;
  const entities = first!.entities.map((e): Entity => {
    if (e.type !== 'Field') return e;
    if (e.category === 'DueDate') return { ...e, keyValues: [], notDetected: true, confidence: 0 };
    if (e.category === 'InvoiceTotal') return { ...e, confidence: 0.62, keyValues: [{ ...subtotal.keyValues[0]!, category: 'InvoiceTotal', categoryNormalized: 'InvoiceTotal' }] };
    if (e.category === 'CustomerName' || e.category === 'CustomerTaxId' || e.notDetected) return e;
    return { ...e, confidence: Math.max(e.confidence, 0.95) };
  });
  return [{ ...first!, entities }, ...rest] as unknown as C;
}

/** Counts what the reviewer does: each click and each key press (with its modifiers) is one action. */
class Reviewer {
  actions = 0;
  readonly log: string[] = [];
  constructor(private readonly page: Page) {}

  async click(selector: string, what: string) {
    await this.page.locator(selector).first().click();
    this.count(`click ${what}`);
  }

  async press(keys: string) {
    await this.page.keyboard.press(keys);
    this.count(keys);
  }

  private count(what: string) {
    this.actions += 1;
    this.log.push(what);
  }
}

/** The focused field's category (the page focuses the first field to check when a task opens). */
export function focusedCategory(page: Page): Promise<string | undefined> {
  return page.evaluate(() => document.activeElement?.dataset?.category);
}

async function waitForFocus(page: Page, category: string) {
  await page.waitForFunction((c) => document.activeElement?.dataset?.category === c, category, { timeout: 10_000 });
}

/** Resolves once the page's first image has arrived. */
export async function pageImageShown(page: Page) {
  await page.waitForFunction(() => (document.querySelector('.page-image img')?.naturalWidth ?? 0) > 0, undefined, { timeout: 20_000 });
}

/**
 * The review as a reviewer who looks at every field the page marks does it, starting on the open
 * task: fills the due date's slot from the page, accepts the buyer's name, passes over the buyer's
 * tax id (not printed), points at the right total, completes. Returns the actions and what they were.
 */
export async function scriptedReview(page: Page): Promise<{ actions: number; log: string[] }> {
  const reviewer = new Reviewer(page);
  const word = (text: string) => `.page-image .word[data-text="${text}"]`;
  await waitForFocus(page, 'DueDate');
  await pageImageShown(page);
  await reviewer.click(word(FIXES[0].word), `the word ${FIXES[0].word}`);
  await reviewer.press('Alt+ArrowDown');
  await waitForFocus(page, 'CustomerName');
  await reviewer.press('Enter');
  await waitForFocus(page, 'CustomerTaxId');
  await reviewer.press('Alt+ArrowDown');
  await waitForFocus(page, 'InvoiceTotal');
  await reviewer.click(word(FIXES[1].word), `the word ${FIXES[1].word}`);
  await reviewer.press('Control+Enter');
  return { actions: reviewer.actions, log: reviewer.log };
}
