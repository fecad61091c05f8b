import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { prefersJson } from '../../http/html.js';
import { AppError } from '../../http/problem.js';
import { problemResponses } from '../../http/schemas.js';
import { ACCEPT_INVITATION_PATH } from '../../mail/invitation-mail.js';
import { acceptedPage, acceptForm, invitationProblemPage } from './invitation-page.js';
import { acceptInvitationBody, acceptInvitationQuery } from './invitations.schemas.js';
import { acceptInvitation, openInvitation } from './invitations.service.js';

const tags = ['Invitations'];

/**
 * A page for a browser; an unusable invitation (400 unknown, 410 used or expired) is explained on
 * a page too, with its status. A client whose Accept prefers JSON (a script, an integrator's
 * check of the link) gets that refusal as the problem body every other route answers with.
 */
async function sendPage(request: FastifyRequest, reply: FastifyReply, render: () => Promise<string>): Promise<FastifyReply> {
  reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
  try {
    return reply.send(await render());
  } catch (error) {
    if (error instanceof AppError && error.status < 500 && !prefersJson(request.headers.accept)) {
      return reply.code(error.status).send(invitationProblemPage(error.detail));
    }
    // The error handler answers with a problem body (and its own content type).
    throw error;
  }
}

function isFormPost(request: FastifyRequest): boolean {
  return request.headers['content-type']?.startsWith('application/x-www-form-urlencoded') ?? false;
}

/** The link of the invitation email. Public: the token is the credential (no Bearer token). */
export const invitationRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    ACCEPT_INVITATION_PATH,
    {
      // The token is in the address: request logging at info level would write it to the logs.
      logLevel: 'warn',
      schema: {
        operationId: 'acceptInvitationPage',
        tags,
        summary: 'HTML form to accept an invitation: choose a name and a password',
        description:
          'Returns text/html: the form (200), or a page explaining why the invitation cannot be used (400 unknown token, 410 used or expired); that refusal is a problem body instead when Accept prefers JSON.',
        querystring: acceptInvitationQuery,
        response: problemResponses(400, 410),
      },
    },
    async (request, reply) =>
      sendPage(request, reply, async () => {
        const { token } = request.query;
        const invitation = await openInvitation(deps.prisma, token);
        return acceptForm({ token, email: invitation.user.email, organizationName: invitation.user.tenant.name });
      }),
  );

  app.post(
    ACCEPT_INVITATION_PATH,
    {
      schema: {
        operationId: 'acceptInvitation',
        tags,
        summary: 'Accept an invitation: the account becomes active with this name and password (sign-in name: the email address)',
        description:
          'JSON: 204, errors as problem bodies. Form-encoded (the HTML form): a text/html page, 200 when accepted, 400/410 when the invitation cannot be used (a problem body instead when Accept prefers JSON).',
        body: acceptInvitationBody,
        response: { 204: z.null().describe('Accepted'), ...problemResponses(400, 410, 500, 503) },
      },
    },
    async (request, reply) => {
      if (isFormPost(request)) return sendPage(request, reply, async () => acceptedPage((await acceptInvitation(deps.prisma, request.body)).email));
      await acceptInvitation(deps.prisma, request.body);
      return reply.code(204).send(null);
    },
  );
};
