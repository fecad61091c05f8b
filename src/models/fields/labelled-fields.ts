import { valueAfter } from '../page/text/key-values.js';
import { findDate, type DateOptions } from './normalize.js';
import { runInRange, type PageText, type TextLine, type TextRun } from '../page/text/text-lines.js';

/** What a rule makes of a value it accepts. */
export interface AcceptedValue {
  /** The part of the value run that is the field (a date inside "15 Jan 2024 (Monday)"); the whole run by default. */
  run?: TextRun;
  contentNormalized: string;
}

export interface FieldRule<C extends string = string> {
  category: C;
  /** Regex sources of the label, matched case-insensitively at the start of a line. */
  labels: readonly string[];
  /** The label must end with a colon: a word like "Patient" starts many lines that announce nothing. */
  colon?: boolean;
  /** The normalised value, or undefined when the text after the label is not such a value. */
  accept: (value: TextRun, page: PageText) => AcceptedValue | undefined;
}

export interface FieldCandidate<C extends string = string> {
  category: C;
  value: TextRun;
  contentNormalized: string;
  labelLine: TextLine;
}

/** Label, then what separates it from its value: spaces, dots, a colon, a number sign. */
function labelPattern({ labels, colon }: FieldRule): RegExp {
  const separator = colon ? '\\s*:\\s*' : '[\\s.:#/-]*';
  return new RegExp(`^(?:${labels.join('|')})(?![\\p{L}\\p{N}])${separator}`, 'iu');
}

/**
 * Fields announced by a label ("Invoice date: 15/01/2024", "Total 1,537.50"): each line is read by
 * the first rule whose label starts it and whose value test the text after the label passes, so
 * rules go from the most specific label ("Total VAT") to the most general ("Total").
 */
export function findLabelledFields<C extends string>(
  page: PageText,
  rules: readonly FieldRule<C>[],
  excluded: ReadonlySet<TextLine> = new Set(),
): FieldCandidate<C>[] {
  const compiled = rules.map((rule) => ({ rule, pattern: labelPattern(rule) }));
  const found: FieldCandidate<C>[] = [];
  for (const line of page.lines) {
    if (excluded.has(line)) continue;
    for (const { rule, pattern } of compiled) {
      const match = pattern.exec(line.text);
      if (!match) continue;
      const value = valueAfter(page, line, match[0].length);
      const accepted = value && rule.accept(value, page);
      if (!value || !accepted) continue;
      found.push({ category: rule.category, value: accepted.run ?? value, contentNormalized: accepted.contentNormalized, labelLine: line });
      break;
    }
  }
  return found;
}

/** The part of a run from `index` for `length` characters of its text (a run read from one stretch of the page text). */
export function subRun(page: PageText, run: TextRun, index: number, length: number): TextRun | undefined {
  const [span] = run.spans;
  return span && runInRange(page, span.offset + index, span.offset + index + length);
}

/** Accepts a value holding a date; the field is the date itself, in ISO. */
export function acceptDate(options: DateOptions): FieldRule['accept'] {
  return (value, page) => {
    const date = findDate(value.text, options);
    return date && { run: subRun(page, value, date.index, date.length), contentNormalized: date.iso };
  };
}
