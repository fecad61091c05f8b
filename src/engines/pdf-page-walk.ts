/**
 * One walk of a page's operator list for all that is read from it: the glyph advances of its
 * fonts (pdf-glyph-widths.ts) and what it draws (pdf-drawing.ts) each follow the operators as
 * the walk hands them over, instead of each going through the list on its own.
 */

/** What a walk hands each operator to: its code (pdf.js' OPS) and its arguments. */
export interface OperatorVisitor {
  visit(op: number, args: unknown[] | null): void;
}

/** The part of pdf.js' operator list a walk reads. */
export interface OperatorList {
  fnArray: ArrayLike<number>;
  argsArray: ArrayLike<unknown>;
}

/**
 * Hands every operator of `list`, in order, to each visitor. A visitor that throws sees no more
 * of the list, and the others go on: what it threw is at its index in the answer (undefined for
 * the visitors that saw the whole list).
 */
export function walkOperators(list: OperatorList, visitors: readonly OperatorVisitor[]): Array<{ error: unknown } | undefined> {
  const failures: Array<{ error: unknown } | undefined> = visitors.map(() => undefined);
  const { fnArray, argsArray } = list;
  for (let i = 0; i < fnArray.length; i++) {
    const op = fnArray[i]!;
    const args = argsArray[i] as unknown[] | null;
    for (let v = 0; v < visitors.length; v++) {
      if (failures[v]) continue;
      try {
        visitors[v]!.visit(op, args);
      } catch (error) {
        failures[v] = { error };
      }
    }
  }
  return failures;
}
