import type { AppDeps } from '../../app-deps.js';
import { publicBaseUrl } from '../../config.js';
import { signFileUrl } from '../../storage/signed-url.js';

export type ExportDeps = Pick<AppDeps, 'prisma' | 'config' | 'fileUrlSecret'>;

/** A time-limited link to a stored file (the link is the credential), or null when there is no file. */
export function signedFileUrl(deps: ExportDeps, key: string | null, filename?: string): string | null {
  if (!key) return null;
  return signFileUrl({
    baseUrl: publicBaseUrl(deps.config),
    key,
    expiresAt: new Date(Date.now() + deps.config.SIGNED_URL_TTL_SECONDS * 1000),
    secret: deps.fileUrlSecret,
    filename,
  });
}

/** How exports name a user: display name, else user name, else email. */
export function userDisplayName(user: { name: string | null; userName: string | null; email: string } | null): string | null {
  return user ? (user.name ?? user.userName ?? user.email) : null;
}
