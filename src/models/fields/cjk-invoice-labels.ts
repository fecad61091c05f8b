/**
 * Labels of Chinese and Japanese invoices and receipts: Taiwan's unified invoice (統一發票, its
 * e-invoice proof 電子發票證明聯) and receipts in traditional characters, Japanese invoices (請求書)
 * and receipts (領収書, レシート), and the mainland's fapiao (发票) in simplified characters. Sources
 * are regexes over `plain` text; OCR may leave a space between two characters, which each label
 * allows (spacedCjk). Tesseract's combined Chinese and Japanese reading may give a Japanese word
 * in its traditional Chinese form ("消費稅" for "消費税"): such labels take either.
 */
import type { LabelCategory, LabelDefinition } from './label-definition.js';

const CJK = '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}]';

/** A label's source with an optional space between each two of its CJK characters ("總 計", "請 求 書"). */
function spacedCjk(source: string): string {
  return source.replace(new RegExp(`(${CJK})(?=${CJK})`, 'gu'), '$1\\s?');
}

function labels(category: LabelCategory, strength: number, sources: readonly string[], extra: Partial<LabelDefinition> = {}): LabelDefinition[] {
  return sources.map((source) => ({ category, strength, source: spacedCjk(source), ...extra }));
}

/** Eight digits after the label: Taiwan's business number (統一編號), which tells a tax id from a party's name. */
const BUSINESS_NUMBER_NEXT = '(?=\\s*[:：]?\\s*\\d{8}(?!\\d))';

export const CJK_INVOICE_LABELS: readonly LabelDefinition[] = [
  // The document's number: Taiwan's invoice number (two letters of its "track" and eight digits,
  // "發票號碼 AB-12345678"), a receipt's; Japan's invoice or receipt number; a fapiao's number
  // (发票号码; its 发票代码 is the code of the batch of forms, no number of the invoice).
  ...labels('InvoiceId', 1, [
    '(?:統一|電子)?發票(?:字軌)?號碼',
    '發票編號',
    '收據(?:號碼|編號)',
    '單據(?:號碼|編號)',
    '請求書?(?:番号|no\\.?|ナンバー)',
    '領収書?(?:番号|no\\.?)',
    'レシート(?:番号|no\\.?)',
    '伝票(?:番号|no\\.?)',
    '发票号码',
    '收据(?:号码|编号)',
  ]),
  ...labels('InvoiceId', 0.6, ['訂單(?:號碼|編號)', '注文番号', '订单(?:号码|编号)']),
  // Titles before the number, as "Invoice" is; not Taiwan's "統一發票" and "電子發票證明聯", whose next line is the filing period.
  ...labels('InvoiceId', 0.7, ['收據', '請求書', '領収書', '領収証', '发票', '收据']),

  ...labels('InvoiceDate', 1, [
    '(?:發票|開立|開票)日期',
    '(?:請求書?|発行|請求書発行)(?:年月)?日',
    '开票日期',
    '发票日期',
  ]),
  ...labels('InvoiceDate', 0.9, ['交易(?:日期|時間)', '(?:取引|ご利用|お買上げ?)日']),
  ...labels('InvoiceDate', 0.75, ['日期', '日付', '年月日']),

  ...labels('DueDate', 1, ['(?:付款|繳費|繳款)(?:期限|截止日)', '(?:お)?支払(?:い)?(?:期限|期日)', '(?:お)?振込(?:み)?期限', '付款期限', '缴费期限']),

  // Before tax: Taiwan's sales amount (銷售額, 銷售額合計), amounts "without tax"; Japan's amount
  // before tax (税抜); the fapiao's net column total (金额合计, 不含税金额).
  ...labels('SubTotal', 1, [
    '銷售額(?:合計)?',
    '(?:未稅|稅前)(?:金額|合計|小計)?',
    '(?:税|稅)抜(?:き)?(?:合計|金額|小計)?',
    '小計',
    '小计',
    '(?:不含税|未税)(?:金额|合计)?',
    '金额合计',
  ]),
  // The fapiao's "合计" row holds its net and its tax side by side; the sums decide.
  ...labels('SubTotal', 0.6, ['合计'], { orAs: 'InvoiceTotal' }),

  // The tax: Taiwan's business tax (營業稅, 稅額), Japan's consumption tax (消費税), the fapiao's tax (税额).
  ...labels('TotalTax', 1, ['營業稅(?:額)?', '稅額(?:合計)?', '消費(?:税|稅)\\s?(?:額|等)?(?:合計)?', '税額(?:合計)?', '(?:增值)?税额(?:合计)?']),
  // A tax the price contains: Japan's "(内消費税等 ¥409)", "うち消費税"; Taiwan's "內含稅".
  ...labels('TotalTax', 1, ['(?:内|うち|內含)(?:消費)?(?:税|稅)(?:等|額)?'], { included: true }),

  // The total: Taiwan's 總計, 總額, 總金額, 應付金額, 含稅金額; Japan's 合計, ご請求金額, 税込合計;
  // the fapiao's 价税合计 (price and tax together, its only total).
  ...labels('InvoiceTotal', 1, [
    '總(?:計|額|金額)',
    '(?:應付|應收|實付)(?:金額|總額)',
    '含稅(?:金額|總額|合計)',
    '(?:合計|総)金額',
    '(?:ご)?請求(?:金額|額)(?:合計)?',
    '(?:ご)?請求合計(?:金額)?',
    '(?:税|稅)込(?:み)?(?:合計|金額|総額)',
    '総合計',
    'お会計',
    '(?:价|價)(?:税|稅)合(?:计|計)',
    '总(?:计|额|金额)',
    '应付金额',
    '(?:实|實)收金(?:额|額)',
  ]),
  ...labels('InvoiceTotal', 0.8, ['合計', '金額', '金额']),

  ...labels('Tendered', 1, ['現金', '(?:お)?預(?:り|かり)(?:金)?', '預/現計', '現計', '信用卡', '现金', '收款']),
  ...labels('Change', 1, ['找零', '找錢', 'お釣(?:り)?', '釣銭', 'おつり']),

  // A Taiwanese e-invoice's random code (隨機碼 9527) is no amount; its 載具 (the carrier the
  // invoice is saved to) no number of it; counts and unit prices are no totals.
  ...labels('Other', 1, ['隨機碼', '随机码', '載具(?:號碼|編號)?', '检验码', '校验码', '機器(?:號碼|編號)', '发票代码', '數量', '数量', '單價', '单价', '点数', '個数', '格式']),

  // Tax numbers: Taiwan's business number (統一編號, 統編), a party's word before its eight digits
  // ("賣方 12345675", "買方 04595257" on an e-invoice proof); the mainland's taxpayer number and
  // unified social credit code; Japan's registration number is in invoice-labels.ts.
  ...labels('TaxId', 1, ['(?:營業人|賣方|買方)?統一編號', '(?:賣方|買方)?統編', '(?:纳税人|納稅人)识别号', '(?:纳税人|納稅人)識別號', '统一社会信用代码', '税号', '事業者登録番号']),
  ...labels('TaxId', 1, [`(?:賣方|卖方|買方|买方)${BUSINESS_NUMBER_NEXT}`]),

  // The parties: the seller (賣方, 銷售方, 営業人) and the buyer (買方, 買受人, 購買方); a name row in
  // a party's block (名稱, 名称).
  ...labels('VendorName', 0.95, ['賣方', '卖方', '銷售方', '销售方', '销货方', '營業人(?:名稱)?', '販売(?:者|元)', '発行元']),
  ...labels('CustomerName', 1, ['買方', '买方', '買受人', '买受人', '購買方', '购买方', '客戶名稱', '客户名称', '請求先', '宛先']),
  ...labels('PartyName', 0.95, ['(?:公司)?名稱', '(?:公司)?名称']),

  ...labels('Currency', 1, ['幣別', '币种', '币别', '通貨']),
];
