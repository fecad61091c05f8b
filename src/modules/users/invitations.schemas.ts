import { z } from 'zod';

export const MIN_PASSWORD_LENGTH = 10;
/** Bounds the work of hashing a password. */
export const MAX_PASSWORD_LENGTH = 1024;
export const MAX_NAME_LENGTH = 256;

const token = z.string().min(1).max(256).describe('The token of the link in the invitation email');

export const acceptInvitationQuery = z.object({ token });

export const acceptInvitationBody = z
  .object({
    token,
    name: z.string().trim().min(1).max(MAX_NAME_LENGTH),
    password: z.string().min(MIN_PASSWORD_LENGTH).max(MAX_PASSWORD_LENGTH),
  })
  .meta({ id: 'AcceptInvitationRequest' });
