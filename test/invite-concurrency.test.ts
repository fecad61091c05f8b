import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TemplateType } from '../src/domain/enums.js';
import { createWorkspace } from '../src/modules/tenants/tenants.service.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import type { Invitee } from './support/invitations.js';

/**
 * Concurrent invitations of the same address end as if they had come one after another: every
 * request 204, one user, one membership, and one invitation per request (a re-invite of a user
 * who has not accepted yet sends a new invitation).
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const CONCURRENT = 6;
const ROUNDS = 4;

function inviteAll(t: TestTenant, payloads: { users: Invitee[]; workspaceId?: number }[]) {
  return Promise.all(
    payloads.map((payload) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/v1.0/external/${payload.workspaceId === undefined ? 'tenant' : 'sdworkspace'}/inviteusers`,
        headers: t.headers,
        payload,
      }),
    ),
  );
}

function expectAll204(responses: Awaited<ReturnType<typeof inviteAll>>) {
  expect(responses.map((r) => (r.statusCode === 204 ? 204 : `${r.statusCode} ${r.body}`))).toEqual(responses.map(() => 204));
}

async function usersOf(tenantId: number, email: string) {
  return ctx.prisma.user.findMany({ where: { tenantId, email }, include: { memberships: true, invitations: true } });
}

describe('concurrent invitations of one new address', () => {
  it('to the organization: all 204, one user, an invitation per request', async () => {
    const t = await createTestTenant(ctx);
    for (let round = 0; round < ROUNDS; round++) {
      const email = `new-${round}@example.com`;
      expectAll204(await inviteAll(t, Array.from({ length: CONCURRENT }, (_, i) => ({ users: [{ email: i % 2 ? email.toUpperCase() : email, roleName: 'Reviewer' }] }))));
      const users = await usersOf(t.tenantId, email);
      expect(users).toHaveLength(1);
      expect(users[0]).toMatchObject({ roleName: 'Reviewer', status: 'Invited' });
      expect(users[0]!.invitations).toHaveLength(CONCURRENT);
    }
  });

  it('to a workspace: all 204, one user, one membership', async () => {
    const t = await createTestTenant(ctx);
    const { workspaceId } = await createWorkspace(ctx.prisma, { tenantId: t.tenantId, name: 'Receipts', templateType: TemplateType.Receipts });
    for (let round = 0; round < ROUNDS; round++) {
      const email = `member-${round}@example.com`;
      expectAll204(await inviteAll(t, Array.from({ length: CONCURRENT }, () => ({ workspaceId, users: [{ email, roleName: 'Reviewer' }] }))));
      const users = await usersOf(t.tenantId, email);
      expect(users).toHaveLength(1);
      expect(users[0]!.memberships).toEqual([expect.objectContaining({ workspaceId, roleName: 'Reviewer' })]);
      expect(users[0]!.invitations).toHaveLength(CONCURRENT);
    }
  });

  it('of several addresses listed in different orders: all 204, no deadlock', async () => {
    const t = await createTestTenant(ctx);
    for (let round = 0; round < ROUNDS; round++) {
      const users = ['a', 'b', 'c'].map((name) => ({ email: `${name}-${round}@example.com`, roleName: 'Viewer' }));
      expectAll204(await inviteAll(t, Array.from({ length: CONCURRENT }, (_, i) => ({ users: i % 2 ? [...users].reverse() : users }))));
      for (const { email } of users) expect(await usersOf(t.tenantId, email)).toHaveLength(1);
    }
  });
});
