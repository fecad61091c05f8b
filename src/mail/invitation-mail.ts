import { publicBaseUrl, type Config } from '../config.js';
import { escapeHtml } from '../http/html.js';
import type { MailMessage } from './mailer.js';

export const ACCEPT_INVITATION_PATH = '/invitations/accept';

export function acceptInvitationUrl(config: Config, token: string): string {
  return `${publicBaseUrl(config)}${ACCEPT_INVITATION_PATH}?token=${encodeURIComponent(token)}`;
}

export interface InvitationMailInput {
  to: string;
  organizationName: string;
  /** Set for an invitation to one workspace. */
  workspaceName?: string;
  roleName: string;
  /**
   * Where the invitee sets a name and password. Absent when the account is already active: the
   * message then only announces the new access.
   */
  accept?: { url: string; expiresAt: Date };
}

export function invitationMail(input: InvitationMailInput): MailMessage {
  const where = input.workspaceName ? `the workspace "${input.workspaceName}" of ${input.organizationName}` : input.organizationName;
  if (!input.accept) {
    const granted = `You have been given access to ${where} as ${input.roleName}.`;
    const next = 'Sign in with your existing account to start.';
    return {
      to: input.to,
      subject: `You now have access to ${input.workspaceName ?? input.organizationName}`,
      text: `${granted}\n\n${next}\n`,
      html: `<p>${escapeHtml(granted)}</p>\n<p>${escapeHtml(next)}</p>\n`,
    };
  }
  const { url, expiresAt } = input.accept;
  const granted = `You have been invited to ${where} as ${input.roleName}.`;
  const expiry = `The link is valid until ${expiresAt.toISOString().replace('T', ' ').slice(0, 16)} UTC.`;
  return {
    to: input.to,
    subject: `Invitation to ${input.organizationName}`,
    text: `${granted}\n\nChoose your name and password to accept:\n${url}\n\n${expiry}\n`,
    html:
      `<p>${escapeHtml(granted)}</p>\n` +
      `<p><a href="${escapeHtml(url)}">Accept the invitation</a> and choose your name and password.</p>\n` +
      `<p>${escapeHtml(expiry)}</p>\n`,
  };
}
