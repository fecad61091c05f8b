import { describe, expect, it } from 'vitest';
import type { FieldCandidate } from '../../../src/models/fields/field-candidate.js';
import { chineseYuan, dateOptionsFor, findAmounts, findCurrencies, findDate, plain } from '../../../src/models/fields/normalize.js';
import { findNationalTaxId, nationalCheckDigits, validTaiwanBusinessNumber } from '../../../src/models/fields/national-tax-ids.js';
import { findPageCandidates } from '../../../src/models/invoice/invoice-fields.js';
import { guessVendor } from '../../../src/models/fields/vendor.js';
import { buildPageText, type PageWord } from '../../../src/models/page/text/text-lines.js';

/**
 * A page of a text layer as CJK PDFs give it: each row's cells at their x (points), a CJK
 * character one size wide, a Latin one about half.
 */
function page(...rows: Array<Array<[string, number]>>) {
  const size = 10;
  const words: PageWord[] = rows.flatMap((cells, r) =>
    cells.flatMap(([text, x]) => {
      let left = x;
      return text.split(' ').map((word) => {
        const width = [...word].reduce((w, c) => w + (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(c) ? size : size * 0.55), 0);
        const placed = { text: word, box: { left, top: 60 + 16 * r, width, height: size }, confidence: 1 };
        left += width + size * 0.3;
        return placed;
      });
    }),
  );
  return buildPageText(words);
}

function best(candidates: readonly FieldCandidate[], category: string): string | undefined {
  return candidates.filter((c) => c.category === category).sort((a, b) => b.score - a.score)[0]?.contentNormalized;
}

const read = (text: ReturnType<typeof page>) => findPageCandidates(text, { dates: dateOptionsFor(undefined), portuguese: false, itemTables: [] });

describe('dates, amounts and currencies of Chinese and Japanese documents', () => {
  it('reads dates written with 年月日, in the Republic of China era and the Japanese eras', () => {
    const iso = (text: string) => findDate(text)?.iso;
    expect(iso('2024年5月20日')).toBe('2024-05-20');
    expect(iso('2025 年 1 月 25 日')).toBe('2025-01-25');
    expect(iso('民國113年05月20日')).toBe('2024-05-20');
    expect(iso('113年05月20日')).toBe('2024-05-20');
    expect(iso('113/05/20')).toBe('2024-05-20');
    expect(iso('令和6年5月20日')).toBe('2024-05-20');
    expect(iso('令和元年5月1日')).toBe('2019-05-01');
    expect(iso('平成31年4月30日')).toBe('2019-04-30');
    expect(iso('R6年5月20日')).toBe('2024-05-20');
  });

  it('takes no filing period of a Taiwanese invoice (a month range without a day) for a date', () => {
    expect(findDate('113年05-06月')).toBeUndefined();
    expect(findDate('113年05月')).toBeUndefined();
  });

  it('reads the Taiwan dollar, the yen and the yuan, and the yuan of a page by its characters', () => {
    expect(findCurrencies('總計 NT$1,050').map((c) => c.code)).toEqual(['TWD']);
    expect(findCurrencies('新台幣 1,050 元').map((c) => c.code)).toEqual(['TWD', 'CNY']);
    expect(findCurrencies('合計 2,640,000円').map((c) => c.code)).toEqual(['JPY']);
    expect(findCurrencies('NTD 500').map((c) => c.code)).toEqual(['TWD']);
    expect(chineseYuan('電子發票證明聯 總計 50元')).toBe('TWD');
    expect(chineseYuan('增值税电子普通发票 价税合计 ¥294.82')).toBe('CNY');
    expect(chineseYuan('領収書 合計 ¥4,500')).toBeUndefined();
    expect(chineseYuan('Total 12.50 EUR')).toBeUndefined();
  });

  it('reads a figure right against a CJK label or unit, which glue no number into a word', () => {
    expect(findAmounts('總計1,050元').map((a) => a.value)).toEqual(['1050']);
    expect(findAmounts('合計2,640,000円').map((a) => a.value)).toEqual(['2640000']);
    // A Latin word glued to a number still makes a code.
    expect(findAmounts('INV1050')).toEqual([]);
  });

  it('keeps the voicing marks of kana in plain text: they are letters, not accents', () => {
    expect(plain('ご請求金額')).toBe('ご請求金額');
    expect(plain('Março')).toBe('marco');
  });
});

describe('tax numbers of Taiwan and China', () => {
  it("checks Taiwan's business number (統一編號), its seventh digit 7 either way", () => {
    expect(validTaiwanBusinessNumber('12345675')).toBe(true);
    expect(validTaiwanBusinessNumber('04595257')).toBe(true);
    expect(validTaiwanBusinessNumber('10458575')).toBe(true);
    expect(validTaiwanBusinessNumber('12345678')).toBe(false);
    expect(validTaiwanBusinessNumber('1234567')).toBe(false);
  });

  it("reads China's unified social credit code and checks its last character", () => {
    expect(findNationalTaxId('纳税人识别号: 91420000753416406R')).toMatchObject({ kind: 'CN-USCC', normalized: '91420000753416406R' });
    expect(nationalCheckDigits('91420000753416406R')).toBe(true);
    expect(nationalCheckDigits('91420000753416406A')).toBe(false);
  });
});

describe('fields of a Taiwanese e-invoice proof (電子發票證明聯)', () => {
  const proof = () =>
    page(
      [['好好吃餐飲股份有限公司', 60]],
      [['電子發票證明聯', 60]],
      [['113年05-06月', 60]],
      [['AB-12345678', 60]],
      [['2024-05-20 12:30:15', 60]],
      [['隨機碼:9527', 60], ['總計:1,050', 160]],
      [['賣方:12345675', 60], ['買方:04595257', 160]],
      [['銷售額合計', 60], ['1,000', 200]],
      [['營業稅', 60], ['50', 200]],
      [['總計', 60], ['NT$1,050', 200]],
    );

  it('reads the number by its shape, the date, the totals and the currency; the period is no number, the random code no amount', () => {
    const { candidates } = read(proof());
    expect(best(candidates, 'InvoiceId')).toBe('AB-12345678');
    expect(best(candidates, 'InvoiceDate')).toBe('2024-05-20');
    expect(best(candidates, 'InvoiceTotal')).toBe('1050');
    expect(best(candidates, 'SubTotal')).toBe('1000');
    expect(best(candidates, 'TotalTax')).toBe('50');
    expect(best(candidates, 'Currency') ?? best(candidates, 'CurrencyMention')).toBe('TWD');
    expect(candidates.filter((c) => c.contentNormalized === '9527' || c.contentNormalized === '9527.00')).toEqual([]);
  });

  it("takes the seller's business number, not the buyer's", () => {
    const { taxIds } = read(proof());
    const seller = taxIds.find((t) => t.contentNormalized === '12345675');
    const buyer = taxIds.find((t) => t.contentNormalized === '04595257');
    expect(seller).toBeDefined();
    expect(buyer).toBeDefined();
  });
});

describe('fields of a Japanese invoice (請求書)', () => {
  it('reads its number, issue date, net, consumption tax, total and yen', () => {
    const { candidates } = read(
      page(
        [['請求書', 250]],
        [['株式会社サンプル商事 御中', 60], ['請求書番号:', 330], ['INV-2024-0117', 400]],
        [['発行日:', 330], ['令和6年5月20日', 400]],
        [['株式会社テスト', 330]],
        [['登録番号:', 330], ['T7000012050002', 400]],
        [['小計', 330], ['100,000円', 420]],
        [['消費税(10%)', 330], ['10,000円', 420]],
        [['合計金額', 330], ['110,000円', 420]],
      ),
    );
    expect(best(candidates, 'InvoiceId')).toBe('INV-2024-0117');
    expect(best(candidates, 'InvoiceDate')).toBe('2024-05-20');
    expect(best(candidates, 'SubTotal')).toBe('100000');
    expect(best(candidates, 'TotalTax')).toBe('10000');
    expect(best(candidates, 'InvoiceTotal')).toBe('110000');
    expect(best(candidates, 'CurrencyMention')).toBe('JPY');
  });
});

describe('the issuer of a Japanese invoice', () => {
  it('is never the name the invoice is addressed to (御中, 様), though it comes first', () => {
    const text = page([['株式会社サンプル商事 御中', 60]], [['下記の通りご請求申し上げます。', 60]], [['株式会社テスト', 330]], [['東京都千代田区1-1', 330]]);
    const { hits } = read(text);
    expect(guessVendor(text, hits, [], new Set())?.run.text).toBe('株式会社テスト');
  });
});

describe('fields of a Chinese fapiao (发票)', () => {
  it('reads its number, date, seller taxpayer number and price-and-tax total', () => {
    const { candidates, taxIds } = read(
      page(
        [['增值税电子普通发票', 200]],
        [['发票号码:', 360], ['07007198', 420]],
        [['开票日期:', 360], ['2018年03月23日', 420]],
        [['销售方', 60], ['名称:湖北随岳南高速公路有限公司', 100]],
        [['纳税人识别号:', 100], ['91420000753416406R', 180]],
        [['价税合计', 60], ['¥294.82', 420]],
      ),
    );
    expect(best(candidates, 'InvoiceId')).toBe('07007198');
    expect(best(candidates, 'InvoiceDate')).toBe('2018-03-23');
    expect(best(candidates, 'InvoiceTotal')).toBe('294.82');
    expect(taxIds.map((t) => t.contentNormalized)).toContain('91420000753416406R');
  });
});
