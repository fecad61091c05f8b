import type { InvitationMails } from '../modules/users/users.service.js';
import { enqueueInvitationMail, type Queues } from '../queues/queues.js';

/** The users service's invitation mails, handed to the mail queue: the pipeline's side of an invite. */
export function invitationMailQueue(queues: Queues): InvitationMails {
  return { enqueue: (job, log) => enqueueInvitationMail(queues, job, log) };
}
