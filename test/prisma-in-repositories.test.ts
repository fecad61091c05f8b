import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const srcDir = path.resolve('src');

/** Where Prisma may be called: repositories, and the db folder that makes the client and transactions. */
function mayQuery(file: string): boolean {
  const relative = path.relative(srcDir, file);
  return relative.endsWith('.repository.ts') || relative.startsWith(`db${path.sep}`);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Prisma's model delegates as the client names them: `model WebhookEvent` → `webhookEvent`. */
function modelDelegates(): Set<string> {
  const schema = readFileSync(path.resolve('prisma/schema.prisma'), 'utf8');
  return new Set([...schema.matchAll(/^model\s+(\w+)/gm)].map(([, name]) => name![0]!.toLowerCase() + name!.slice(1)));
}

const DELEGATE_OPERATIONS = new Set([
  'findMany',
  'findFirst',
  'findFirstOrThrow',
  'findUnique',
  'findUniqueOrThrow',
  'create',
  'createMany',
  'createManyAndReturn',
  'update',
  'updateMany',
  'updateManyAndReturn',
  'delete',
  'deleteMany',
  'upsert',
  'count',
  'aggregate',
  'groupBy',
]);
const CLIENT_OPERATIONS = new Set(['$transaction', '$queryRaw', '$queryRawUnsafe', '$executeRaw', '$executeRawUnsafe']);

/**
 * Each Prisma query in a file's text, as `line: expression`. A query is `<anything>.<model>.<operation>(`
 * or `<anything>.$queryRaw…` / `$transaction(`, called or used as a tag; the names come from the
 * schema, so a new model is covered without touching this test.
 */
export function prismaQueries(text: string, delegates: ReadonlySet<string>, fileName = 'file.ts'): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const report = (node: ts.Node) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    found.push(`${line + 1}: ${node.getText(source).split('\n')[0]}`);
  };
  const visit = (node: ts.Node) => {
    const callee = ts.isCallExpression(node) ? node.expression : ts.isTaggedTemplateExpression(node) ? node.tag : undefined;
    if (callee && ts.isPropertyAccessExpression(callee)) {
      const operation = callee.name.text;
      const owner = callee.expression;
      const onDelegate = DELEGATE_OPERATIONS.has(operation) && ts.isPropertyAccessExpression(owner) && delegates.has(owner.name.text);
      if (onDelegate || CLIENT_OPERATIONS.has(operation)) report(callee);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('data layer', () => {
  it('calls Prisma only from repositories (and src/db)', () => {
    const delegates = modelDelegates();
    const outside = sourceFiles(srcDir)
      .filter((file) => !mayQuery(file))
      .flatMap((file) => prismaQueries(readFileSync(file, 'utf8'), delegates, file).map((hit) => `${path.relative(srcDir, file)}:${hit}`));
    expect(outside).toEqual([]);
  });

  it('recognises the shapes of a query (the check itself)', () => {
    const delegates = new Set(['task', 'webhookEvent']);
    const text = [
      'await deps.prisma.task.findMany({ where: { tenantId } });',
      'await tx.webhookEvent.updateMany({ data: {} });',
      'await prisma.$transaction(async (tx) => 1);',
      'await db.$queryRaw`SELECT 1`;',
      'await findTaskById(db, 1, 2);',
      'const task = input.task.name;',
      'list.create(1);',
    ].join('\n');
    expect(prismaQueries(text, delegates).map((hit) => Number(hit.split(':')[0]))).toEqual([1, 2, 3, 4]);
  });
});
