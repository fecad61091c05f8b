/**
 * What makes a line read as a company's name: a legal form of the countries whose documents we
 * read, or a trade word that serves as one on receipts ("RESTORAN", "HARDWARE").
 */
import { plain } from './normalize.js';

/** Legal forms written as words of their own (on plain text). */
const SPACED_LEGAL_FORM =
  /(?:^|[\s,(])(?:gmbh(?:\s*&\s*co\.?\s*kg)?|ag|kg|ug|ohg|e\.\s?k\.?|b\.\s?v\.?|bv|n\.\s?v\.?|nv|v\.o\.f\.?|vof|bvba|sprl|srl|sarl|s\.a\.r\.l\.?|sas|sasu|eurl|s\.\s?a\.?|sa|s\.\s?a\.\s?s\.?|s\.\s?r\.\s?l\.?|s\.\s?p\.\s?a\.?|spa|s\.\s?n\.\s?c\.?|snc|s\.\s?l\.?(?:\s?u\.?)?|sl|slu|lda\.?|ltda\.?|unipessoal|ltd\.?|limited|llc|l\.l\.c\.?|llp|plc|inc\.?|incorporated|corp\.?|corporation|co\.|company|pvt\.?(?:\s*ltd\.?)?|private\s+limited|(?:sdn\.?\s*)?bhd\.?|s\/b|pte\.?(?:\s*ltd\.?)?|pty\.?(?:\s*ltd\.?)?|oy|oyj|ab|a\/s|aps|asa|kft|zrt|nyrt|s\.?\s?r\.\s?o\.?|spol\.\s*s\s*r\.\s?o\.?|a\.\s?s\.|d\.\s?o\.\s?o\.?|sp\.\s?j\.?|s\.\s?c\.|kgaa|a\.\s?g\.|vvag|gbr|partg(?:\s*mbb)?|sp\.?\s*z\s*o\.?\s*o\.?|coop\.?|cooperativa|co-?operative|eg|cvba|scrl|vzw|asbl|e\.\s?v\.?|association|stichting|enterprises?|trading|traders|holdings?|industries|group|restaurant|restoran|cafe|bakeries|hardware|stationery|store|mart|shop|supermarket|pharmacy|hotel)(?=$|[\s,.)])/;

/**
 * Chinese and Japanese legal forms, written right after the name without a space ("好好吃股份有限公司",
 * "ABC株式会社") or before it ("株式会社ABC", "(株)"): Taiwan's company limited by shares and limited
 * company, the mainland's, a sole trader's "enterprise" and "firm"; Japan's kabushiki, yugen and
 * godo kaisha.
 */
const CJK_LEGAL_FORM = /股份有限公司|有限責任公司|有限责任公司|有限公司|公司|企業社|企业社|商行|株式会社|有限会社|合同会社|\(株\)|㈱/;

/** Legal forms of companies (on plain text), in the countries whose documents we read. */
export const LEGAL_FORM = new RegExp(`${SPACED_LEGAL_FORM.source}|${CJK_LEGAL_FORM.source}`);

/** A Dutch postcode ("5211 AB"): its two letters are no legal form (AB, AG, BV...). */
const DUTCH_POSTCODE = /\b\d{4}\s?[a-z]{2}\b/gi;

/** Whether a text (plain, or as printed) names a legal form of company, postcodes apart. */
export function hasLegalForm(text: string): boolean {
  return LEGAL_FORM.test(text.toLowerCase().replace(DUTCH_POSTCODE, ' '));
}

/** Whether a text is a legal form and nothing else ("GmbH", "Ltd.", "S.A.S."): no name of a party. */
export function isOnlyLegalForm(text: string): boolean {
  const folded = ` ${plain(text).replace(/[,;]/g, ' ')} `;
  return hasLegalForm(folded) && !/\p{L}{2}/u.test(folded.replace(new RegExp(LEGAL_FORM.source, 'g'), ' ').replace(/[\s.&]+/g, ' '));
}


/**
 * What a legal line prints after the name: the share capital ("SAS Clos des Tilleuls au capital de
 * 120 000 €", "Ltd with a share capital of", "GmbH, Stammkapital"), the branch ("S.à r.l.,
 * Niederlassung Deutschland").
 */
export const AFTER_THE_NAME = /,?\s+(?:au\s+capital|capital\s+social|(?:with\s+)?(?:a\s+)?share\s+capital|capitale\s+sociale|stammkapital|grundkapital|maatschappelijk\s+kapitaal|(?:zweig)?niederlassung|branch|succursale|filiale|sucursal|sede\s+secondaria)\b/i;
